// SPDX-License-Identifier: Apache-2.0
/* Replay of a fuzz target's entry point over the files of a source folder
 * (the same code the libFuzzer build runs): tests in `make test`. */
#ifndef COSROD_FUZZ_REPLAY_H
#define COSROD_FUZZ_REPLAY_H
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "harness.h"

/* Runs one(file bytes) for every regular file of COSROD_SOURCE_DIR/rel;
 * returns the number of files, adds the sum of one()'s results to *sum. */
static int fuzz_replay_dir(const char *rel, int (*one)(const uint8_t *, size_t), int *sum) {
  const char *src = getenv("COSROD_SOURCE_DIR");
  char dir[1200];
  snprintf(dir, sizeof dir, "%.900s/%s", src ? src : ".", rel);
  DIR *d = opendir(dir);
  int n = 0;
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[2400];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    static uint8_t buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    int r = one(buf, len);
    if (sum) *sum += r;
    n++;
  }
  closedir(d);
  return n;
}
#endif
