/* The benchmark harness of benchmarks/peers/run.py: one entry per (library, function),
 * all with one signature; the per-robot entries.c (written by run.py) lists them. */
#ifndef PEERS_HARNESS_H
#define PEERS_HARNESS_H

typedef void (*peer_fn)(const double* q, const double* qd, const double* x, double* out);

struct peer_entry {
    const char* library;    /* soagen, pinocchio, pinocchio-cg, casadi, mujoco, ... */
    const char* function;   /* ID, M, C, Minv, FD, J, Jdqd, Lam, dID, dFD */
    peer_fn call;
    int convention;         /* which input arrays (run.py writes one set per convention) */
    int nout;               /* doubles written to out */
    int turn;               /* 1: also timed one call of each function in turn and after other code */
};

extern const struct peer_entry PEER_ENTRIES[];
extern const int PEER_NENTRIES;
int peers_setup(const char* dir);   /* load the libraries' models; 0 when all went well */

/* The 64 input sets of a convention: argument a (0 q, 1 qd, 2 x) of set k is
 * peers_input(c, a) + k * peers_dim(c, a). For entries that need the inputs at setup
 * (the batch kernels of benchmarks/peers/lane_width.py). */
#define PEERS_NSETS 64
const double* peers_input(int convention, int argument);
int peers_dim(int convention, int argument);

#endif
