/* MuJoCo's C API behind the benchmark's entry signature, for benchmarks/peers/run.py.
 *
 * Each function runs the smallest set of MuJoCo's pipeline stages that yields the
 * quantity (no collision, constraint or actuation stage), on one mjData:
 *   ID    mj_kinematics, mj_comPos, mj_comVel, mj_rne(flg_acc = 1)      (qacc = qdd)
 *   C     mj_kinematics, mj_comPos, mj_comVel, mj_rne(flg_acc = 0)
 *   M     mj_kinematics, mj_comPos, mj_crb, mj_fullM
 *   Minv  M's stages, mj_factorM, mj_solveM on the nv unit vectors
 *   FD    mj_kinematics, mj_comPos, mj_crb, mj_factorM, mj_comVel, mj_rne(0), mj_solveM
 *   J     mj_kinematics, mj_comPos, mj_jacBody at the frame body (angular rows first)
 *   Jdqd  mj_kinematics, mj_comPos, mj_comVel, mj_jacDot, times qd
 *   Lam   J's and Minv's stages, mj_solveM on the 6 columns of J^T, J times that
 * Vectors and matrices are row-major, in the robot's joint order (MuJoCo's for a chain). */
#include <stdio.h>
#include <string.h>

#include <mujoco/mujoco.h>

static mjModel* m;
static mjData* d;
static int body;
static mjtNum J[6 * 64], X[6 * 64], E[64 * 64];

/* Load the model and pick the frame body; returns nv, or -1. */
int mjp_load(const char* xml, const char* frame_body)
{
    char err[1000] = "";
    m = mj_loadXML(xml, NULL, err, sizeof err);
    if (!m) {
        fprintf(stderr, "MuJoCo: %s\n", err);
        return -1;
    }
    if (m->nv > 64)
        return -1;
    d = mj_makeData(m);
    body = frame_body && *frame_body ? mj_name2id(m, mjOBJ_BODY, frame_body) : 0;
    if (body < 0)
        return -1;
    memset(E, 0, sizeof E);
    for (int i = 0; i < m->nv; i++)
        E[i * m->nv + i] = 1.0;
    return m->nv;
}

static void state(const double* q, const double* qd)
{
    mju_copy(d->qpos, q, m->nq);
    if (qd)
        mju_copy(d->qvel, qd, m->nv);
    mj_kinematics(m, d);
    mj_comPos(m, d);
}

void mjp_id(const double* q, const double* qd, const double* qdd, double* out)
{
    state(q, qd);
    mj_comVel(m, d);
    mju_copy(d->qacc, qdd, m->nv);
    mj_rne(m, d, 1, out);
}

void mjp_bias(const double* q, const double* qd, const double* x, double* out)
{
    (void)x;
    state(q, qd);
    mj_comVel(m, d);
    mj_rne(m, d, 0, out);
}

void mjp_mass(const double* q, const double* qd, const double* x, double* out)
{
    (void)qd, (void)x;
    state(q, NULL);
    mj_crb(m, d);
    mj_fullM(m, d, out);
}

void mjp_minv(const double* q, const double* qd, const double* x, double* out)
{
    (void)qd, (void)x;
    state(q, NULL);
    mj_crb(m, d);
    mj_factorM(m, d);
    mj_solveM(m, d, out, E, m->nv);       /* M symmetric: rows of M^-1 = columns */
}

void mjp_fd(const double* q, const double* qd, const double* tau, double* out)
{
    state(q, qd);
    mj_crb(m, d);
    mj_factorM(m, d);
    mj_comVel(m, d);
    mj_rne(m, d, 0, d->qfrc_bias);
    for (int i = 0; i < m->nv; i++)
        d->qfrc_smooth[i] = tau[i] - d->qfrc_bias[i];
    mj_solveM(m, d, out, d->qfrc_smooth, 1);
}

void mjp_jac(const double* q, const double* qd, const double* x, double* out)
{
    (void)qd, (void)x;
    state(q, NULL);
    mj_jacBody(m, d, out + 3 * m->nv, out, body);
}

void mjp_jdot_qd(const double* q, const double* qd, const double* x, double* out)
{
    (void)x;
    state(q, qd);
    mj_comVel(m, d);
    mj_jacDot(m, d, J + 3 * m->nv, J, d->xpos + 3 * body, body);
    mju_mulMatVec(out, J, qd, 6, m->nv);
}

void mjp_lambda_inv(const double* q, const double* qd, const double* x, double* out)
{
    (void)qd, (void)x;
    const int nv = m->nv;
    state(q, NULL);
    mj_crb(m, d);
    mj_factorM(m, d);
    mj_jacBody(m, d, J + 3 * nv, J, body);
    mj_solveM(m, d, X, J, 6);                /* rows of X: M^-1 J^T columns */
    mju_mulMatMatT(out, J, X, 6, nv, 6);
}
