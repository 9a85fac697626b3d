// Pinocchio's C++ algorithms behind a C interface, for benchmarks/peers/run.py.
//
// Robot-independent: the driver reads the URDF with Pinocchio's Python parser and hands
// the model over joint by joint (pin_begin, pin_add_joint, pin_add_frame), so this file
// needs no URDF library and is compiled once per machine and compiler flags and cached
// (it takes minutes: the algorithms are templates, compiled here with the harness's
// flags, not taken from the wheel's pre-built library). Every matrix is written
// row-major; vectors and matrices are in Pinocchio's own conventions (the driver
// converts).
#include <cstring>
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

// A new model with gravity g (linear, 3 numbers).
void pin_begin(const double* g)
{
    model = pin::Model();
    model.gravity = pin::Motion(Eigen::Vector3d(g[0], g[1], g[2]), Eigen::Vector3d::Zero());
}

static pin::SE3 se3(const double* p)   // R row-major (9), then the translation (3)
{
    Eigen::Matrix3d R;
    R << p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8];
    return pin::SE3(R, Eigen::Vector3d(p[9], p[10], p[11]));
}

// Joint `type` below joint `parent` (0 = the universe) at `placement`, carrying a body
// of inertia (m, c (3), I about c: xx, xy, yy, xz, yz, zz). Types keep Pinocchio's own
// specializations: 0-2 revolute about x, y, z; 3-5 prismatic along x, y, z; 6 revolute
// about `axis`; 7 prismatic along `axis`; 8 free flyer. Returns the joint id, or -1.
int pin_add_joint(int type, const double* axis, int parent, const double* placement, const double* inertia,
                  const char* name)
{
    const Eigen::Vector3d a(axis[0], axis[1], axis[2]);
    const pin::SE3 X = se3(placement);
    pin::JointIndex id;
    switch (type) {
    case 0: id = model.addJoint(parent, pin::JointModelRX(), X, name); break;
    case 1: id = model.addJoint(parent, pin::JointModelRY(), X, name); break;
    case 2: id = model.addJoint(parent, pin::JointModelRZ(), X, name); break;
    case 3: id = model.addJoint(parent, pin::JointModelPX(), X, name); break;
    case 4: id = model.addJoint(parent, pin::JointModelPY(), X, name); break;
    case 5: id = model.addJoint(parent, pin::JointModelPZ(), X, name); break;
    case 6: id = model.addJoint(parent, pin::JointModelRevoluteUnaligned(a), X, name); break;
    case 7: id = model.addJoint(parent, pin::JointModelPrismaticUnaligned(a), X, name); break;
    case 8: id = model.addJoint(parent, pin::JointModelFreeFlyer(), X, name); break;
    default: return -1;
    }
    const double* I = inertia + 4;
    Eigen::Matrix3d Ic;
    Ic << I[0], I[1], I[3], I[1], I[2], I[4], I[3], I[4], I[5];
    model.appendBodyToJoint(id, pin::Inertia(inertia[0], Eigen::Vector3d(inertia[1], inertia[2], inertia[3]), Ic),
                            pin::SE3::Identity());
    return (int)id;
}

// The frame of the frame functions: fixed on joint `parent` at `placement`.
void pin_add_frame(int parent, const double* placement)
{
    frame_id = model.addFrame(pin::Frame("soagen_frame", parent, se3(placement), pin::OP_FRAME));
}

// Allocate the workspace; returns nv.
int pin_finish(void)
{
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
