/* The benchmark harness of benchmarks/peers/run.py: one entry per (library, function),
 * all with one signature; the per-robot entries.c (written by run.py) lists them. */
#ifndef PEERS_HARNESS_H
#define PEERS_HARNESS_H

typedef void (*peer_fn)(const double* q, const double* qd, const double* x, double* out);

struct peer_entry {
    const char* library;    /* soagen, pinocchio, casadi, mujoco, ... */
    const char* function;   /* ID, M, C, Minv, FD, J, Jdqd, Lam, dID, dFD, or sincos */
    peer_fn call;
    int convention;         /* which input arrays (run.py writes one set per convention) */
    int nout;               /* doubles written to out */
};

extern const struct peer_entry PEER_ENTRIES[];
extern const int PEER_NENTRIES;
int peers_setup(const char* dir);   /* load the libraries' models; 0 when all went well */

#endif
