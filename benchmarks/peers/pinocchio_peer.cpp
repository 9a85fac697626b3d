// Pinocchio's C++ algorithms behind a C interface, for benchmarks/peers/run.py.
//
// Robot-independent: the model comes from the driver's model file (pin_model.hpp), so
// this file is compiled once per machine and compiler flags and cached (it takes
// minutes: the algorithms are templates, compiled here with the harness's flags, not
// taken from the wheel's pre-built library). Every matrix is written row-major; vectors
// and matrices are in Pinocchio's own conventions (the driver converts).
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include <Eigen/Core>
#include "pinocchio/algorithm/aba-derivatives.hpp"
#include "pinocchio/algorithm/aba.hpp"
#include "pinocchio/algorithm/crba.hpp"
#include "pinocchio/algorithm/frames.hpp"
#include "pinocchio/algorithm/jacobian.hpp"
#include "pinocchio/algorithm/kinematics.hpp"
#include "pinocchio/algorithm/rnea-derivatives.hpp"
#include "pinocchio/algorithm/rnea.hpp"
#include "pinocchio/multibody.hpp"
#include "pin_model.hpp"

namespace pin = pinocchio;
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::VectorXd;
using CVecMap = Eigen::Map<const Vec>;

static pin::Model model;
static pin::Data* data = nullptr;
static pin::FrameIndex frame_id = 0;
static Eigen::Matrix<double, 6, Eigen::Dynamic> J6;
static RowMat Minv_full;

static void write(const Eigen::MatrixXd& A, double* out)
{
    Eigen::Map<RowMat>(out, A.rows(), A.cols()) = A;
}

extern "C" {

// Read the model file (pin_model.hpp) and allocate the workspace; returns nv, or -1.
int pin_load(const char* path)
{
    try {
        model = peers::read_model(path, &frame_id);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pin_load: %s\n", e.what());
        return -1;
    }
    delete data;
    data = new pin::Data(model);
    J6.setZero(6, model.nv);
    Minv_full.setZero(model.nv, model.nv);
    return model.nv;
}

int pin_nq(void) { return model.nq; }

void pin_rnea(const double* q, const double* v, const double* a, double* tau)
{
    const int nq = model.nq, nv = model.nv;
    Eigen::Map<Vec>(tau, nv) = pin::rnea(model, *data, CVecMap(q, nq), CVecMap(v, nv), CVecMap(a, nv));
}

void pin_nle(const double* q, const double* v, const double*, double* out)
{
    Eigen::Map<Vec>(out, model.nv) = pin::nonLinearEffects(model, *data, CVecMap(q, model.nq), CVecMap(v, model.nv));
}

// crba fills the upper triangle; the driver mirrors it.
void pin_crba(const double* q, const double*, const double*, double* M)
{
    write(pin::crba(model, *data, CVecMap(q, model.nq)), M);
}

void pin_minv(const double* q, const double*, const double*, double* Minv)
{
    write(pin::computeMinverse(model, *data, CVecMap(q, model.nq)), Minv);
}

void pin_aba(const double* q, const double* v, const double* tau, double* qdd)
{
    const int nq = model.nq, nv = model.nv;
    Eigen::Map<Vec>(qdd, nv) = pin::aba(model, *data, CVecMap(q, nq), CVecMap(v, nv), CVecMap(tau, nv),
                                        pin::Convention::WORLD);
}

// Frame Jacobian, LOCAL_WORLD_ALIGNED (linear rows first), 6 x nv.
void pin_jacobian(const double* q, const double*, const double*, double* J)
{
    pin::computeFrameJacobian(model, *data, CVecMap(q, model.nq), frame_id, pin::LOCAL_WORLD_ALIGNED, J6);
    write(J6, J);
}

// Classical acceleration of the frame at qdd = 0, gravity off: Jdot qd (linear first).
void pin_jdot_qd(const double* q, const double* v, const double*, double* out)
{
    const Vec zero = Vec::Zero(model.nv);
    pin::forwardKinematics(model, *data, CVecMap(q, model.nq), CVecMap(v, model.nv), zero);
    const pin::Motion a = pin::getFrameClassicalAcceleration(model, *data, frame_id, pin::LOCAL_WORLD_ALIGNED);
    Eigen::Map<Eigen::Matrix<double, 6, 1>> res(out);
    res = a.toVector();
}

// J M^-1 J^T from computeMinverse and the frame Jacobian (6 x 6, linear first).
void pin_jminvjt(const double* q, const double*, const double*, double* out)
{
    const CVecMap qm(q, model.nq);
    pin::computeMinverse(model, *data, qm);
    Minv_full = data->Minv.selfadjointView<Eigen::Upper>();
    pin::computeFrameJacobian(model, *data, qm, frame_id, pin::LOCAL_WORLD_ALIGNED, J6);
    const Eigen::Matrix<double, 6, 6> L = J6 * Minv_full * J6.transpose();
    write(L, out);
}

// computeRNEADerivatives: dtau/dq then dtau/dv (nv x nv each).
void pin_drnea(const double* q, const double* v, const double* a, double* dq, double* dv)
{
    const int nq = model.nq, nv = model.nv;
    pin::computeRNEADerivatives(model, *data, CVecMap(q, nq), CVecMap(v, nv), CVecMap(a, nv));
    write(data->dtau_dq, dq);
    write(data->dtau_dv, dv);
}

// computeABADerivatives: dqdd/dq, dqdd/dv, M^-1 (nv x nv each; M^-1 upper triangle).
void pin_daba(const double* q, const double* v, const double* tau, double* dq, double* dv, double* Minv)
{
    const int nq = model.nq, nv = model.nv;
    pin::computeABADerivatives(model, *data, CVecMap(q, nq), CVecMap(v, nv), CVecMap(tau, nv));
    write(data->ddq_dq, dq);
    write(data->ddq_dv, dv);
    write(data->Minv, Minv);
}

}  // extern "C"
