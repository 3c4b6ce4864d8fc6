/* The launcher's signals.  While the application runs, SIGTERM, SIGINT and
 * SIGHUP sent to rtg-trace by a process (kill, a batch system, timeout)
 * are forwarded to it, so it ends as it would untraced and rtg-trace still
 * converts what it wrote; the same signals from the terminal (^C) reach
 * the application directly, as its process group gets them, and are not
 * sent a second time.  SIGQUIT is the application's alone, as in a shell.
 * Signals that were ignored when rtg-trace started stay ignored. */
#define _GNU_SOURCE
#include "launcher.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP};
enum { NFWD = sizeof forwarded / sizeof *forwarded };
static struct sigaction old_fwd[NFWD], old_quit;
static sigset_t old_mask;
static volatile pid_t child;

static void forward(int sig, siginfo_t *si, void *ctx) {
  (void)ctx;
  if (si && si->si_code == SI_KERNEL) return; /* the terminal's: the application has it */
  pid_t p = child;
  if (p > 0) kill(p, sig);
}

void rtg_signals_before_fork(void) {
  sigset_t block;
  sigemptyset(&block);
  for (int i = 0; i < NFWD; i++) sigaddset(&block, forwarded[i]);
  sigprocmask(SIG_BLOCK, &block, &old_mask);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = forward;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < NFWD; i++) {
    sigaction(forwarded[i], NULL, &old_fwd[i]);
    if (old_fwd[i].sa_handler != SIG_IGN) sigaction(forwarded[i], &sa, NULL);
  }
  sigaction(SIGQUIT, NULL, &old_quit);
}

void rtg_signals_child(void) {
  for (int i = 0; i < NFWD; i++) sigaction(forwarded[i], &old_fwd[i], NULL);
  sigaction(SIGQUIT, &old_quit, NULL);
  sigprocmask(SIG_SETMASK, &old_mask, NULL);
}

void rtg_signals_running(pid_t pid) {
  child = pid;
  signal(SIGQUIT, SIG_IGN);
  sigprocmask(SIG_SETMASK, &old_mask, NULL);
}

void rtg_signals_done(void) {
  child = 0;
  /* SIGINT stays the terminal's and the tools' while they convert */
  struct sigaction ign;
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  for (int i = 0; i < NFWD; i++)
    sigaction(forwarded[i], forwarded[i] == SIGINT ? &ign : &old_fwd[i], NULL);
}
