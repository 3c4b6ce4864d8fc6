/* libtp_late.so: an object tp_exec dlopens after the tracer has loaded;
 * its exec goes through its own GOT, which the tracer patches later. */
#include <unistd.h>

void tp_late_exec(void);

void tp_late_exec(void) {
  execlp("true", "true", (char *)NULL);
}
