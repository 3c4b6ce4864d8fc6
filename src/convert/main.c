/* convert: placeholder entry point until its issue lands. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--version")) {
    printf("%s %s\n", "rtg-convert", RTG_VERSION);
    return 0;
  }
  printf("usage: %s --help | --version\n", "rtg-convert");
  return argc > 1 && !strcmp(argv[1], "--help") ? 0 : 2;
}
