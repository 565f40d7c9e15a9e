// SPDX-License-Identifier: Apache-2.0
/* DIR/view.html: the viewer's page: a head naming the viewer bundle
 * (view_bundle.c, generated at build time from viewer/) by its hash, the
 * bundle in a <script> (it starts the viewer once the page is parsed), then
 * the run's files inlined as one JSON object {"note": "...", "files":
 * {"name": "text", ...}} in a <script type="application/json"> element.
 * '<' is written as \u003c inside the JSON so that no file content can
 * close the script.
 *
 * The viewer part (head and bundle, ~0.6 MB) is the same for every run of
 * one cosrod build: when the page already exists with that part (same head,
 * the bundle's closing tag at its end) and no other name links to it, only
 * the data after it is rewritten and the file cut to its new length.
 * Writing the whole page again cost more CPU than a short run itself.
 * Otherwise the page is written to NAME.tmp and renamed into place. */
#define _POSIX_C_SOURCE 200809L
#include "cosrod/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cosrod/version.h"
#include "view_internal.h"

/* The files the page reads; series: rows grouped by output time in column t. */
static const struct {
  const char *name;
  int series;
} FILES[] = {
    {"summary.json", 0}, {"scene.json", 0},    {"centerline.csv", 1}, {"frames.csv", 1},
    {"strains.csv", 1},  {"curvatures.csv", 1}, {"energy.csv", 1},     {"bodies.csv", 1},
    {"joints.csv", 1},   {"reactions.csv", 1}, {"contacts.csv", 1},   {"obstacles.csv", 1},
    {"increments.csv", 0}, {"modes.csv", 0},   {"buckling.csv", 0}, {"modes_bodies.csv", 0}, {"buckling_bodies.csv", 0},
};
#define NFILES (sizeof FILES / sizeof FILES[0])

int cosrod_view_available(void) { return cosrod_view_bundle_size > 0; }

static void set_msg(char *msg, size_t n, const char *fmt, const char *a, const char *b) {
  if (msg && n) snprintf(msg, n, fmt, a, b);
}

static long file_size(const char *dir, const char *name) {
  char path[4096];
  struct stat sb;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? (long)sb.st_size : -1;
}

size_t cosrod_view_data_bytes(const char *dir) {
  size_t total = 0;
  for (size_t i = 0; i < NFILES; i++) {
    long s = file_size(dir, FILES[i].name);
    if (s > 0) total += (size_t)s;
  }
  return total;
}

/* JSON string body of buf[0..n) (without quotes). */
static void put_json(FILE *f, const char *buf, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)buf[i];
    if (c == '"' || c == '\\')
      fputc('\\', f), fputc(c, f);
    else if (c == '\n')
      fputs("\\n", f);
    else if (c == '<')
      fputs("\\u003c", f);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
}

/* Number of distinct output times (changes of the first field) of a CSV. */
static long count_times(FILE *in) {
  char *line = NULL, *prev = NULL;
  size_t cap = 0;
  long n = 0, row = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, in)) > 0) {
    if (row++ == 0) continue; /* header */
    char *comma = strchr(line, ',');
    size_t k = comma ? (size_t)(comma - line) : (size_t)len;
    if (!prev || strncmp(prev, line, k) != 0 || prev[k] != '\0') {
      free(prev);
      prev = malloc(k + 1);
      if (!prev) break;
      memcpy(prev, line, k);
      prev[k] = '\0';
      n++;
    }
  }
  free(line);
  free(prev);
  rewind(in);
  return n;
}

/* Copy a file as a JSON string; series with stride > 1: the header, the
 * rows of every stride-th output time and of the last one. */
static int put_file(FILE *f, FILE *in, int series, long stride) {
  long ntimes = series && stride > 1 ? count_times(in) : 0;
  char *line = NULL, *prev = NULL;
  size_t cap = 0;
  long row = 0, frame = -1;
  ssize_t len;
  fputc('"', f);
  while ((len = getline(&line, &cap, in)) > 0) {
    int keep = 1;
    if (row++ > 0 && ntimes > 0) {
      char *comma = strchr(line, ',');
      size_t k = comma ? (size_t)(comma - line) : (size_t)len;
      if (!prev || strncmp(prev, line, k) != 0 || prev[k] != '\0') {
        free(prev);
        prev = malloc(k + 1);
        if (!prev) {
          free(line);
          return -1;
        }
        memcpy(prev, line, k);
        prev[k] = '\0';
        frame++;
      }
      keep = frame % stride == 0 || frame == ntimes - 1;
    }
    if (keep) put_json(f, line, (size_t)len);
  }
  free(line);
  free(prev);
  fputc('"', f);
  return ferror(in) ? -1 : 0;
}

/* The page's head, naming this build's viewer bundle; its length. */
static size_t html_head(char *buf, size_t n) {
  int k = snprintf(buf, n,
                   "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                   "<meta name=\"generator\" content=\"cosrod view %s, viewer %s\"><title>cosrod view</title></head>\n"
                   "<body>\n<noscript>This page needs JavaScript.</noscript>\n",
                   COSROD_VERSION_STRING, cosrod_view_bundle_id);
  return k > 0 ? (size_t)k : 0;
}

#define SCRIPT_OPEN "<script>\n"
#define SCRIPT_CLOSE "\n</script>\n"

/* The existing page `out` opened for an update of its data when it holds
 * this build's viewer part (head, bundle, closing tag) and has one link;
 * else NULL.  *prefix: the length of that part. */
static FILE *open_for_update(const char *out, const char *head, size_t nhead, size_t *prefix) {
  *prefix = nhead + strlen(SCRIPT_OPEN) + cosrod_view_bundle_size + strlen(SCRIPT_CLOSE);
  int fd = open(out, O_RDWR);
  if (fd < 0) return NULL;
  struct stat sb;
  char buf[2048], tail[sizeof SCRIPT_CLOSE];
  const size_t nclose = strlen(SCRIPT_CLOSE);
  int ok = nhead <= sizeof buf && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_nlink == 1 &&
           (size_t)sb.st_size >= *prefix && pread(fd, buf, nhead, 0) == (ssize_t)nhead && !memcmp(buf, head, nhead) &&
           pread(fd, tail, nclose, (off_t)(*prefix - nclose)) == (ssize_t)nclose && !memcmp(tail, SCRIPT_CLOSE, nclose);
  FILE *f = ok ? fdopen(fd, "r+") : NULL;
  if (!f) {
    close(fd);
    return NULL;
  }
  if (fseeko(f, (off_t)*prefix, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  return f;
}

/* The data element and the page's end; sizes: of FILES (-1: not there). */
static int put_data(FILE *f, const char *dir, const long *sizes, const char *note, long stride) {
  fputs("<script type=\"application/json\" id=\"cosrod-data\">{\"note\":\"", f);
  put_json(f, note, strlen(note));
  fputs("\",\"files\":{", f);
  int first = 1, bad = 0;
  for (size_t i = 0; i < NFILES && !bad; i++) {
    char path[4096];
    if (sizes[i] < 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, FILES[i].name);
    FILE *in = fopen(path, "r");
    if (!in) continue;
    fprintf(f, "%s\"%s\":", first ? "" : ",\n", FILES[i].name);
    first = 0;
    bad = put_file(f, in, FILES[i].series, stride) != 0;
    fclose(in);
  }
  fputs("}}</script>\n</body></html>\n", f);
  return bad || ferror(f) ? -1 : 0;
}

/* The page `out`: its data only when the viewer part is there (see the top),
 * else all of it through out.tmp; 0 or -1. */
static int write_page(const char *out, const char *dir, const long *sizes, const char *note, long stride) {
  char head[1024], tmp[4200];
  size_t nhead = html_head(head, sizeof head), prefix;
  FILE *f = open_for_update(out, head, nhead, &prefix);
  if (f) {
    int bad = put_data(f, dir, sizes, note, stride) != 0 || fflush(f) != 0;
    off_t end = ftello(f);
    bad = bad || end < 0 || ftruncate(fileno(f), end) != 0;
    if (fclose(f) == 0 && !bad) return 0; /* else written whole below */
  }
  snprintf(tmp, sizeof tmp, "%s.tmp", out);
  f = fopen(tmp, "w");
  if (!f) return -1;
  fwrite(head, 1, nhead, f);
  fputs(SCRIPT_OPEN, f);
  fwrite(cosrod_view_bundle, 1, cosrod_view_bundle_size, f);
  fputs(SCRIPT_CLOSE, f);
  int bad = put_data(f, dir, sizes, note, stride) != 0;
  if (fclose(f) != 0) bad = 1;
  if (bad || rename(tmp, out) != 0) {
    remove(tmp);
    return -1;
  }
  return 0;
}

cosrod_status cosrod_view_write(const char *dir, const char *html, size_t max_bytes, char *msg, size_t msg_size) {
  if (msg && msg_size) msg[0] = '\0';
  if (!dir) return COSROD_ERR_INVALID;
  if (!cosrod_view_available()) {
    set_msg(msg, msg_size, "%s%s",
            "the viewer was not built into this cosrod (node and npm were missing when it was built: "
            "apt-get install nodejs npm, then rebuild)", "");
    return COSROD_ERR_UNSUPPORTED;
  }
  long sizes[NFILES];
  int any = 0;
  for (size_t i = 0; i < NFILES; i++) any |= (sizes[i] = file_size(dir, FILES[i].name)) >= 0;
  /* no summary.json: a folder with none of the files is no output directory
   * (nothing written); else the page is written and says what is missing */
  const int nosummary = sizes[0] < 0;
  if (nosummary && !any) {
    set_msg(msg, msg_size, "%s: no summary.json: not a cosrod output directory%s", dir, "");
    return COSROD_ERR_IO;
  }
  if (max_bytes == 0) max_bytes = COSROD_VIEW_MAX_BYTES;
  size_t series = 0;
  for (size_t i = 0; i < NFILES; i++)
    if (FILES[i].series && sizes[i] > 0) series += (size_t)sizes[i];
  long stride = series > max_bytes ? (long)((series + max_bytes - 1) / max_bytes) : 1;
  char note[512] = "";
  if (stride > 1) {
    char path[4096];
    snprintf(path, sizeof path, "%s/centerline.csv", dir);
    FILE *in = fopen(path, "r");
    if (!in) snprintf(path, sizeof path, "%s/bodies.csv", dir), in = fopen(path, "r");
    long nt = in ? count_times(in) : 0;
    if (in) fclose(in);
    /* shown: frames 0, k, 2k, ... and the last */
    long shown = nt > 0 ? (nt - 1) / stride + 1 + ((nt - 1) % stride != 0) : 0;
    snprintf(note, sizeof note,
             "frames decimated: the output (%.3g MB of time series) is larger than the page's limit of %.3g MB: "
             "every %ld-th of the %ld output times is shown (and the last), %ld frames",
             (double)series / 1048576.0, (double)max_bytes / 1048576.0, stride, nt, shown);
  }
  char out[4096];
  if (html)
    snprintf(out, sizeof out, "%s", html);
  else
    snprintf(out, sizeof out, "%s/view.html", dir);
  if (write_page(out, dir, sizes, note, stride) != 0) {
    set_msg(msg, msg_size, "cannot write %s%s", out, "");
    return COSROD_ERR_IO;
  }
  if (nosummary) {
    if (msg && msg_size)
      snprintf(msg, msg_size, "%s: no summary.json (cosrod run writes it first: files copied without it?); %s says so",
               dir, out);
    return COSROD_ERR_IO;
  }
  if (msg && msg_size) snprintf(msg, msg_size, "%s", note);
  return COSROD_OK;
}
