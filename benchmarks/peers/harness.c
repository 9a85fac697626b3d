/* Timing loop of benchmarks/peers/run.py: harness DIR ROUNDS TARGET_NS.
 *
 * Reads DIR/inputs.bin (per convention: nq, nv, then NSETS sets of q, qd, x), calls every
 * entry once per set and writes its outputs to DIR/out_<k>.bin (the driver checks them
 * against Pinocchio), then times: ROUNDS rounds, in each every entry in turn for about
 * TARGET_NS of calls cycling over the sets, so that all entries see the same load of a
 * shared machine. Prints "library function best_ns median_ns" per entry. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

#define NSETS 64
#define MAXCONV 4

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double* sets[MAXCONV][3];
static int dims[MAXCONV][2];

static int read_inputs(const char* dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/inputs.bin", dir);
    FILE* f = fopen(path, "rb");
    int nconv;
    if (!f || fread(&nconv, sizeof nconv, 1, f) != 1 || nconv > MAXCONV)
        return -1;
    for (int c = 0; c < nconv; c++) {
        if (fread(dims[c], sizeof(int), 2, f) != 2)
            return -1;
        const int sizes[3] = { dims[c][0], dims[c][1], dims[c][1] };
        for (int a = 0; a < 3; a++) {
            sets[c][a] = malloc(sizeof(double) * NSETS * (size_t)sizes[a]);
            if (fread(sets[c][a], sizeof(double), NSETS * (size_t)sizes[a], f) != NSETS * (size_t)sizes[a])
                return -1;
        }
    }
    fclose(f);
    return 0;
}

int main(int argc, char** argv)
{
    if (argc < 4)
        return 2;
    const char* dir = argv[1];
    const int rounds = atoi(argv[2]);
    const double target = atof(argv[3]);
    if (read_inputs(dir) || peers_setup(dir)) {
        fprintf(stderr, "harness: setup failed\n");
        return 1;
    }
    double* out = calloc(1 << 16, sizeof(double));
    double* t = malloc(sizeof(double) * (size_t)(rounds * PEER_NENTRIES));
    long* iters = malloc(sizeof(long) * (size_t)PEER_NENTRIES);
    volatile double sink = 0.0;
    for (int e = 0; e < PEER_NENTRIES; e++) {        /* outputs for the check, then calibrate */
        const struct peer_entry* p = &PEER_ENTRIES[e];
        const int c = p->convention, nq = dims[c][0], nv = dims[c][1];
        char path[4096];
        snprintf(path, sizeof path, "%s/out_%d.bin", dir, e);
        FILE* f = fopen(path, "wb");
        const double t0 = now_ns();
        for (int k = 0; k < NSETS; k++) {
            p->call(sets[c][0] + k * nq, sets[c][1] + k * nv, sets[c][2] + k * nv, out);
            fwrite(out, sizeof(double), (size_t)p->nout, f);
        }
        fclose(f);
        const double per_call = (now_ns() - t0) / NSETS;
        iters[e] = (long)(target / (per_call > 1.0 ? per_call : 1.0)) + 1;
    }
    for (int r = 0; r < rounds; r++)
        for (int e = 0; e < PEER_NENTRIES; e++) {
            const struct peer_entry* p = &PEER_ENTRIES[e];
            const int c = p->convention, nq = dims[c][0], nv = dims[c][1];
            const double t0 = now_ns();
            for (long i = 0; i < iters[e]; i++) {
                const int k = (int)(i & (NSETS - 1));
                p->call(sets[c][0] + k * nq, sets[c][1] + k * nv, sets[c][2] + k * nv, out);
                sink += out[0];
            }
            t[e * rounds + r] = (now_ns() - t0) / (double)iters[e];
        }
    for (int e = 0; e < PEER_NENTRIES; e++) {
        qsort(t + e * rounds, (size_t)rounds, sizeof(double), cmp);
        printf("%s %s %.2f %.2f\n", PEER_ENTRIES[e].library, PEER_ENTRIES[e].function, t[e * rounds],
               t[e * rounds + rounds / 2]);
    }
    return sink == 12345.678 ? 3 : 0;
}
