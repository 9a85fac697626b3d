// Pinocchio's C++ counterparts of soagen's controller functions (frames, centre of mass,
// centroidal momentum, armature, loop closures) behind the harness's C interface, for
// benchmarks/peers/controller.py. Like pinocchio_peer.cpp: robot independent (the model
// comes from the driver's model file, pin_model.hpp), compiled once per machine and flags
// from the pin wheel's headers and cached. Every matrix is written row-major, in
// Pinocchio's own conventions (the driver converts).
//
// pinc_load(model file, extra file): the extra file adds, one record per line,
//   armature a_0 .. a_{nv-1}                  (model.armature, Pinocchio's v order)
//   connect J1 R00 .. R22 tx ty tz J2 R00 .. R22 tx ty tz
//                                             (a CONTACT_3D RigidConstraintModel, LOCAL)
//   proximal ACCURACY MU MAX_ITER             (constraintDynamics's settings)
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include <Eigen/Core>
#include "pinocchio/algorithm/aba.hpp"
#include "pinocchio/algorithm/center-of-mass.hpp"
#include "pinocchio/algorithm/centroidal.hpp"
#include "pinocchio/algorithm/constrained-dynamics.hpp"
#include "pinocchio/algorithm/crba.hpp"
#include "pinocchio/algorithm/frames.hpp"
#include "pinocchio/algorithm/jacobian.hpp"
#include "pinocchio/algorithm/kinematics.hpp"
#include "pinocchio/multibody.hpp"
#include "pin_model.hpp"

namespace pin = pinocchio;
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::VectorXd;
using CVecMap = Eigen::Map<const Vec>;

static pin::Model model;
static pin::Data* data = nullptr;
static pin::FrameIndex frame_id = 0;
static std::vector<pin::RigidConstraintModel> cmodels;
static std::vector<pin::RigidConstraintData> cdatas;
static pin::ProximalSettings prox(1e-12, 1e-8, 10);
static Vec zero_v;

using Vec6Map = Eigen::Map<Eigen::Matrix<double, 6, 1>>;

template<typename M>
static void write(const M& A, double* out)
{
    Eigen::Map<RowMat>(out, A.rows(), A.cols()) = A;
}

static void read_extra(const char* path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error(std::string(path) + ": cannot read");
    std::string kind;
    while (in >> kind) {
        if (kind == "armature") {
            for (int i = 0; i < model.nv; i++)
                in >> model.armature[i];
        } else if (kind == "connect") {
            int j1, j2;
            in >> j1;
            const pin::SE3 X1 = peers::read_se3(in);
            in >> j2;
            const pin::SE3 X2 = peers::read_se3(in);
            cmodels.emplace_back(pin::CONTACT_3D, model, j1, X1, j2, X2, pin::LOCAL);
        } else if (kind == "proximal") {
            double acc, mu;
            int iters;
            in >> acc >> mu >> iters;
            prox = pin::ProximalSettings(acc, mu, iters);
        } else {
            throw std::runtime_error(std::string(path) + ": unknown record " + kind);
        }
        if (!in)
            throw std::runtime_error(std::string(path) + ": malformed " + kind + " record");
    }
}

extern "C" {

// Read the model file and the extra file; allocate the workspace. Returns nv, or -1.
int pinc_load(const char* model_path, const char* extra_path)
{
    try {
        model = peers::read_model(model_path, &frame_id);
        read_extra(extra_path);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pinc_load: %s\n", e.what());
        return -1;
    }
    delete data;
    data = new pin::Data(model);
    cdatas.clear();
    for (const auto& cm : cmodels)
        cdatas.emplace_back(cm);
    if (!cmodels.empty())
        pin::initConstraintDynamics(model, *data, cmodels, cdatas);
    zero_v.setZero(model.nv);
    return model.nv;
}

// forwardKinematics(q) + updateFramePlacement: the frame's oMf, 4 x 4.
void pinc_frame_placement(const double* q, const double*, const double*, double* T)
{
    pin::forwardKinematics(model, *data, CVecMap(q, model.nq));
    write(pin::updateFramePlacement(model, *data, frame_id).toHomogeneousMatrix(), T);
}

// forwardKinematics(q, v) + getFrameVelocity, LOCAL_WORLD_ALIGNED (linear first).
void pinc_frame_velocity(const double* q, const double* v, const double*, double* out)
{
    pin::forwardKinematics(model, *data, CVecMap(q, model.nq), CVecMap(v, model.nv));
    Vec6Map(out, 6) =
        pin::getFrameVelocity(model, *data, frame_id, pin::LOCAL_WORLD_ALIGNED).toVector();
}

// forwardKinematics(q, v, a) + getFrameClassicalAcceleration, LOCAL_WORLD_ALIGNED.
void pinc_frame_acceleration(const double* q, const double* v, const double* a, double* out)
{
    pin::forwardKinematics(model, *data, CVecMap(q, model.nq), CVecMap(v, model.nv), CVecMap(a, model.nv));
    Vec6Map(out, 6) =
        pin::getFrameClassicalAcceleration(model, *data, frame_id, pin::LOCAL_WORLD_ALIGNED).toVector();
}

// centerOfMass(q) without the subtrees' centres.
void pinc_com(const double* q, const double*, const double*, double* out)
{
    Eigen::Map<Eigen::Vector3d>(out, 3) = pin::centerOfMass(model, *data, CVecMap(q, model.nq), false);
}

// jacobianCenterOfMass(q) without the subtrees' centres, 3 x nv.
void pinc_jcom(const double* q, const double*, const double*, double* out)
{
    write(pin::jacobianCenterOfMass(model, *data, CVecMap(q, model.nq), false), out);
}

// computeCentroidalMap: A_G, 6 x nv (linear rows first).
void pinc_ag(const double* q, const double*, const double*, double* out)
{
    write(pin::computeCentroidalMap(model, *data, CVecMap(q, model.nq)), out);
}

// computeCentroidalMapTimeVariation, then dA_G v (linear first).
void pinc_dag_v(const double* q, const double* v, const double*, double* out)
{
    const CVecMap vm(v, model.nv);
    pin::computeCentroidalMapTimeVariation(model, *data, CVecMap(q, model.nq), vm);
    Vec6Map(out, 6) = data->dAg * vm;
}

// computeCentroidalMomentumTimeVariation at a = 0: dh_G = dA_G v (linear first).
void pinc_dhg(const double* q, const double* v, const double*, double* out)
{
    pin::computeCentroidalMomentumTimeVariation(model, *data, CVecMap(q, model.nq), CVecMap(v, model.nv), zero_v);
    Vec6Map(out, 6) = data->dhg.toVector();
}

// crba with model.armature (upper triangle; the driver mirrors it).
void pinc_crba(const double* q, const double*, const double*, double* M)
{
    write(pin::crba(model, *data, CVecMap(q, model.nq)), M);
}

// aba with model.armature.
void pinc_aba(const double* q, const double* v, const double* tau, double* qdd)
{
    Eigen::Map<Vec>(qdd, model.nv) = pin::aba(model, *data, CVecMap(q, model.nq), CVecMap(v, model.nv),
                                              CVecMap(tau, model.nv), pin::Convention::WORLD);
}

// constraintDynamics with the connect closures (proximal settings of the extra file).
void pinc_constraint_dynamics(const double* q, const double* v, const double* tau, double* qdd)
{
    Eigen::Map<Vec>(qdd, model.nv) = pin::constraintDynamics(model, *data, CVecMap(q, model.nq), CVecMap(v, model.nv),
                                                             CVecMap(tau, model.nv), cmodels, cdatas, prox);
}

}  // extern "C"
