/* `mpris-bench report`: medians with min–max per player and metric, and each player's ratio to
 * the first (linnet), as a Markdown table on stdout and in --out. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLAYERS 8
#define MAX_METRICS 96
#define MAX_SAMPLES 256

struct series {
    int count;
    double values[MAX_SAMPLES];
};

static char players[MAX_PLAYERS][64];
static char metrics[MAX_METRICS][96];
static int player_count, metric_count;
static struct series table[MAX_METRICS][MAX_PLAYERS];

static int index_of(char names[][96], int *count, int limit, const char *name, size_t width) {
    for (int i = 0; i < *count; i++)
        if (!strcmp(names[i], name)) return i;
    if (*count == limit) return -1;
    snprintf(names[*count], width, "%s", name);
    return (*count)++;
}

static int player_index(const char *name) {
    for (int i = 0; i < player_count; i++)
        if (!strcmp(players[i], name)) return i;
    return -1;
}

static void format_number(char *out, size_t size, double value) {
    if (value == 0) snprintf(out, size, "0");
    else if (value >= 100 || value <= -100) snprintf(out, size, "%.0f", value);
    else if (value >= 10 || value <= -10) snprintf(out, size, "%.1f", value);
    else snprintf(out, size, "%.3g", value);
}

/* Usage: report --players linnet,mpv,reference --out results.md [--title text] files... */
int run_report(int argc, char **argv) {
    const char *out_path = NULL, *title = "MPRIS benchmark";
    int first_file = argc;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--players") && i + 1 < argc) {
            char *list = strdup(argv[++i]);
            for (char *name = strtok(list, ","); name && player_count < MAX_PLAYERS; name = strtok(NULL, ","))
                snprintf(players[player_count++], sizeof players[0], "%s", name);
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!strcmp(argv[i], "--title") && i + 1 < argc) {
            title = argv[++i];
        } else {
            first_file = i;
            break;
        }
    }
    if (player_count == 0 || first_file == argc) {
        fprintf(stderr, "usage: mpris-bench report --players a,b,c [--out file.md] [--title text] results...\n");
        return 64;
    }
    for (int f = first_file; f < argc; f++) {
        FILE *file = fopen(argv[f], "r");
        if (!file) {
            fprintf(stderr, "mpris-bench report: cannot read %s\n", argv[f]);
            return 66;
        }
        char player[64], metric[96];
        double value;
        while (fscanf(file, "%63s %95s %lf", player, metric, &value) == 3) {
            int p = player_index(player), m = index_of(metrics, &metric_count, MAX_METRICS, metric, sizeof metrics[0]);
            if (p < 0 || m < 0) continue;
            struct series *s = &table[m][p];
            if (s->count < MAX_SAMPLES) s->values[s->count++] = value;
        }
        fclose(file);
    }

    FILE *md = out_path ? fopen(out_path, "w") : NULL;
    if (out_path && !md) {
        fprintf(stderr, "mpris-bench report: cannot write %s\n", out_path);
        return 73;
    }
    FILE *outputs[2] = {stdout, md};
    for (int o = 0; o < 2; o++) {
        FILE *out = outputs[o];
        if (!out) continue;
        fprintf(out, "# %s\n\nMedian over rounds (min–max); ×N is the player's median divided by %s's.\n\n| metric |",
                title, players[0]);
        for (int p = 0; p < player_count; p++) fprintf(out, " %s |", players[p]);
        fprintf(out, "\n|---|");
        for (int p = 0; p < player_count; p++) fprintf(out, "---|");
        fprintf(out, "\n");
        for (int m = 0; m < metric_count; m++) {
            fprintf(out, "| %s |", metrics[m]);
            double base = 0;
            for (int p = 0; p < player_count; p++) {
                struct series *s = &table[m][p];
                if (s->count == 0) {
                    fprintf(out, " – |");
                    continue;
                }
                sort_doubles(s->values, s->count);
                double median = s->count % 2 ? s->values[s->count / 2]
                                             : (s->values[s->count / 2 - 1] + s->values[s->count / 2]) / 2;
                char a[32], lo[32], hi[32];
                format_number(a, sizeof a, median);
                format_number(lo, sizeof lo, s->values[0]);
                format_number(hi, sizeof hi, s->values[s->count - 1]);
                if (p == 0) base = median;
                if (s->count > 1) fprintf(out, " %s (%s–%s)", a, lo, hi);
                else fprintf(out, " %s", a);
                if (p > 0 && base != 0) fprintf(out, " ×%.2f", median / base);
                fprintf(out, " |");
            }
            fprintf(out, "\n");
        }
    }
    if (md) fclose(md);
    return 0;
}
