/* Timing loop of benchmarks/peers/run.py: harness DIR ROUNDS TARGET_NS [PATTERNS].
 *
 * Reads DIR/inputs.bin (per convention: nq, nv, then NSETS sets of q, qd, x), calls every
 * entry once per set and writes its outputs to DIR/out_<k>.bin (the driver checks them
 * against Pinocchio), then times ROUNDS rounds of three call patterns (PATTERNS, default
 * "hot,turn,cold"), each round all entries in turn, so that all see the same load of a
 * shared machine:
 *
 *   hot   every entry called for about TARGET_NS in a loop, cycling over the sets: the
 *         function and its data stay in the caches;
 *   turn  per library, one call of each of its functions in turn (ID, M, FD, ...), as a
 *         controller calls them once per step, for about TARGET_NS per library; each
 *         call timed on its own;
 *   cold  one call of each entry after touching EVICT_BYTES of other memory (read and
 *         written) and running EVICT_BYTES of other code (x86-64: a chain of jumps, one
 *         per 64-byte line), as a call between other work finds the caches.
 *
 * A round's time of an entry is the mean ns per call over the round (hot, turn: after
 * untimed calls, two of the function or one step of its library) or the one call
 * (cold); turn and cold subtract the timer's own cost (the median of 1001 back-to-back
 * reads). Prints "pattern library function best_ns median_ns" per entry
 * and pattern (entries without `turn` only in the hot loop). */
#define _POSIX_C_SOURCE 199309L
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <sys/mman.h>
#endif

#include "harness.h"

#define NSETS PEERS_NSETS
#define MAXCONV 4
#define EVICT_BYTES (8u << 20)

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

const double* peers_input(int convention, int argument) { return sets[convention][argument]; }
int peers_dim(int convention, int argument) { return argument ? dims[convention][1] : dims[convention][0]; }

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

static void call(const struct peer_entry* p, int k, double* out)
{
    const int c = p->convention;
    p->call(sets[c][0] + k * dims[c][0], sets[c][1] + k * dims[c][1], sets[c][2] + k * dims[c][1], out);
}

/* -- other memory and code, for the cold pattern ----------------------------------------- */

static unsigned char* evict_data;
static void (*evict_code)(void);

static void evict_setup(void)
{
    evict_data = calloc(EVICT_BYTES, 1);
#if defined(__x86_64__)
    unsigned char* code = mmap(NULL, EVICT_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED)
        return;
    for (size_t i = 0; i + 64 < EVICT_BYTES; i += 64) {    /* jmp rel8 to the next line */
        code[i] = 0xEB;
        code[i + 1] = 62;
    }
    code[EVICT_BYTES - 64] = 0xC3;                         /* ret */
    if (mprotect(code, EVICT_BYTES, PROT_READ | PROT_EXEC) == 0)
        memcpy(&evict_code, &code, sizeof code);
#endif
}

static void evict(void)
{
    for (size_t i = 0; i < EVICT_BYTES; i += 64)
        evict_data[i] += 1;
    if (evict_code)
        evict_code();
}

/* -------------------------------------------------------------------------------------- */

int main(int argc, char** argv)
{
    if (argc < 4)
        return 2;
    const char* dir = argv[1];
    const int rounds = atoi(argv[2]);
    const double target = atof(argv[3]);
    const char* patterns = argc > 4 ? argv[4] : "hot,turn,cold";
    const int hot = strstr(patterns, "hot") != NULL, turn = strstr(patterns, "turn") != NULL,
              cold = strstr(patterns, "cold") != NULL;
    if (read_inputs(dir) || peers_setup(dir)) {
        fprintf(stderr, "harness: setup failed\n");
        return 1;
    }
    const int n = PEER_NENTRIES;
    double* out = calloc(1 << 20, sizeof(double));
    double* t_hot = malloc(sizeof(double) * (size_t)(rounds * n));
    double* t_turn = malloc(sizeof(double) * (size_t)(rounds * n));
    double* t_cold = malloc(sizeof(double) * (size_t)(rounds * n));
    double* per_call = malloc(sizeof(double) * (size_t)n);
    long* iters = malloc(sizeof(long) * (size_t)n);
    volatile double sink = 0.0;
    for (int e = 0; e < n; e++) {        /* outputs for the check, then calibrate */
        const struct peer_entry* p = &PEER_ENTRIES[e];
        char path[4096];
        snprintf(path, sizeof path, "%s/out_%d.bin", dir, e);
        FILE* f = fopen(path, "wb");
        const double t0 = now_ns();
        for (int k = 0; k < NSETS; k++) {
            call(p, k, out);
            fwrite(out, sizeof(double), (size_t)p->nout, f);
        }
        fclose(f);
        per_call[e] = (now_ns() - t0) / NSETS;
        iters[e] = (long)(target / (per_call[e] > 1.0 ? per_call[e] : 1.0)) + 1;
    }
    double timer[1001];                  /* the timer's own cost */
    for (int i = 0; i < 1001; i++) {
        const double t0 = now_ns();
        timer[i] = now_ns() - t0;
    }
    qsort(timer, 1001, sizeof(double), cmp);
    const double overhead = timer[500];
    evict_setup();
    if (cold)
        printf("# timer %.1f ns; cold: %u bytes of data%s\n", overhead, EVICT_BYTES,
               evict_code ? " and of code" : " (no executable memory: no code)");

    for (int r = 0; r < rounds; r++) {
        if (hot)
            for (int e = 0; e < n; e++) {
                const struct peer_entry* p = &PEER_ENTRIES[e];
                for (int k = 0; k < 2; k++)      /* warm: the cold pattern may have just run */
                    call(p, k, out);
                const double t0 = now_ns();
                for (long i = 0; i < iters[e]; i++) {
                    call(p, (int)(i & (NSETS - 1)), out);
                    sink += out[0];
                }
                t_hot[e * rounds + r] = (now_ns() - t0) / (double)iters[e];
            }
        if (turn)
            for (int e0 = 0; e0 < n;) {  /* the entries of one library are consecutive */
                int e1 = e0;
                double step = 0.0;
                while (e1 < n && strcmp(PEER_ENTRIES[e1].library, PEER_ENTRIES[e0].library) == 0)
                    step += per_call[e1++];
                if (!PEER_ENTRIES[e0].turn) {
                    e0 = e1;
                    continue;
                }
                const long steps = (long)(target / (step > 1.0 ? step : 1.0)) + 1;
                for (int e = e0; e < e1; e++) {  /* one step untimed, then the timed ones */
                    call(&PEER_ENTRIES[e], 0, out);
                    t_turn[e * rounds + r] = 0.0;
                }
                for (long s = 0; s < steps; s++)
                    for (int e = e0; e < e1; e++) {
                        const double t0 = now_ns();
                        call(&PEER_ENTRIES[e], (int)(s & (NSETS - 1)), out);
                        t_turn[e * rounds + r] += now_ns() - t0 - overhead;
                        sink += out[0];
                    }
                for (int e = e0; e < e1; e++)
                    t_turn[e * rounds + r] /= (double)steps;
                e0 = e1;
            }
        if (cold)
            for (int e = 0; e < n; e++) {
                if (!PEER_ENTRIES[e].turn)
                    continue;
                evict();
                const double t0 = now_ns();
                call(&PEER_ENTRIES[e], r & (NSETS - 1), out);
                t_cold[e * rounds + r] = now_ns() - t0 - overhead;
                sink += out[0];
            }
    }
    const char* names[3] = { "hot", "turn", "cold" };
    double* times[3] = { t_hot, t_turn, t_cold };
    const int on[3] = { hot, turn, cold };
    for (int m = 0; m < 3; m++)
        for (int e = 0; e < n; e++) {
            if (!on[m] || (m > 0 && !PEER_ENTRIES[e].turn))
                continue;
            double* t = times[m] + e * rounds;
            qsort(t, (size_t)rounds, sizeof(double), cmp);
            printf("%s %s %s %.2f %.2f\n", names[m], PEER_ENTRIES[e].library, PEER_ENTRIES[e].function, t[0],
                   t[rounds / 2]);
        }
    return sink == 12345.678 ? 3 : 0;
}
