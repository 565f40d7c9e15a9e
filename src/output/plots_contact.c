// SPDX-License-Identifier: Apache-2.0
/* plots/contact.gp -> contact.png: contact forces of a run with `contact:`
 * from ../contact_forces.csv (written by the recorder, src/record/
 * record_contact.c: t, active, then Fn_NAME, Ft_NAME, n_NAME per obstacle and
 * `rods` for rod-rod and self-contact).  Three panels vs t: the total normal
 * force per group, the total friction force (sum of |Ft|) per group, and
 * the number of active contact points per group and in all.  The groups are
 * read from the file's header, so the figure follows the file. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_internal.h"

#define GROUPS_MAX 64

/* The header of DIR/contact_forces.csv into line (NULL if absent or
 * without data rows). */
static char *read_header(const cosrod_output *out, char *line, size_t cap) {
  size_t n = strlen(out->dir) + 32;
  char *path = malloc(n);
  if (!path) return NULL;
  snprintf(path, n, "%s/contact_forces.csv", out->dir);
  FILE *f = fopen(path, "r");
  free(path);
  if (!f) return NULL;
  char row[64];
  char *ok = fgets(line, (int)cap, f);
  if (ok && !fgets(row, sizeof row, f)) ok = NULL; /* no data row */
  fclose(f);
  if (ok) line[strcspn(line, "\r\n")] = '\0';
  return ok;
}

int out_contact_plot_wanted(const cosrod_output *out) {
  char line[4096];
  return read_header(out, line, sizeof line) != NULL;
}

/* Group names from the header "t,active,Fn_A,Ft_A,n_A,...": into names
 * (pointers into line), returns the count. */
static int groups(char *line, const char **names) {
  int ng = 0, col = 0;
  for (char *tok = strtok(line, ","); tok; tok = strtok(NULL, ","), col++)
    if (col >= 2 && (col - 2) % 3 == 0 && ng < GROUPS_MAX && !strncmp(tok, "Fn_", 3)) names[ng++] = tok + 3;
  return ng;
}

void out_script_contact(const cosrod_output *out, FILE *fp) {
  static const char *const what[3] = {"normal force [N]", "friction force [N]", "active contact points"};
  static const char *const pre[3] = {"Fn ", "Ft ", "n "};
  char line[4096];
  const char *names[GROUPS_MAX];
  int ng = read_header(out, line, sizeof line) ? groups(line, names) : 0;
  out_gp_preamble(fp, "contact forces and active contacts from ../contact_forces.csv", "contact.png", 1000, 900);
  fputs("set multiplot layout 3,1 title ", fp);
  out_gp_quoted(fp, *out->title ? out->title : "cosrod");
  fputs(strcmp(out->analysis, "dynamic") ? "\nset xlabel 'pseudo-time t'\n" : "\nset xlabel 't [s]'\n", fp);
  for (int p = 0; p < 3; ++p) {
    fprintf(fp, "set ylabel '%s'\nplot ", what[p]);
    for (int g = 0; g < ng; ++g) {
      fprintf(fp, "%s'../contact_forces.csv' skip 1 using 1:%d with lines lw 2 lc %d title ", g ? ", \\\n     " : "",
              3 + 3 * g + p, g + 1);
      char name[300];
      snprintf(name, sizeof name, "%s%s", pre[p], names[g]);
      out_gp_quoted(fp, name);
    }
    if (p == 2) fprintf(fp, "%s'../contact_forces.csv' skip 1 using 1:2 with lines lw 1 lc rgb 'black' dt 2 title 'all'",
                        ng ? ", \\\n     " : "");
    else if (ng == 0) fputs("NaN notitle", fp);
    fputc('\n', fp);
  }
  fputs("unset multiplot\n", fp);
}
