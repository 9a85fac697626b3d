// The robot model of benchmarks/peers/run.py, read into a pinocchio::Model: the driver
// reads the URDF with Pinocchio's Python parser and writes the model joint by joint
// (Pinocchio's own joint types kept), so that the C++ programs need no URDF library.
// Shared by pinocchio_peer.cpp (the C++ algorithms) and pinocchio_cg.cpp (Pinocchio's
// code generator). A text file, one record per line, numbers in round-trip precision:
//
//   gravity gx gy gz
//   joint TYPE PARENT ax ay az R00 .. R22 tx ty tz m cx cy cz Ixx Ixy Iyy Ixz Iyz Izz NAME
//   frame PARENT R00 .. R22 tx ty tz
//
// TYPE: 0-2 revolute about x, y, z; 3-5 prismatic along x, y, z; 6 revolute about the
// axis a; 7 prismatic along a; 8 free flyer. The joint's placement in its parent joint's
// frame is (R row-major, t); its body has mass m, centre of mass c and rotational
// inertia I about c. A frame record adds the frame of the frame functions.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>

#include <Eigen/Core>
#include "pinocchio/multibody.hpp"

namespace peers {

inline pinocchio::SE3 read_se3(std::istream& in)
{
    Eigen::Matrix3d R;
    Eigen::Vector3d t;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            in >> R(i, j);
    in >> t[0] >> t[1] >> t[2];
    return pinocchio::SE3(R, t);
}

inline pinocchio::JointIndex add_joint(pinocchio::Model& model, int type, const Eigen::Vector3d& a,
                                       int parent, const pinocchio::SE3& X, const std::string& name)
{
    namespace pin = pinocchio;
    switch (type) {
    case 0: return model.addJoint(parent, pin::JointModelRX(), X, name);
    case 1: return model.addJoint(parent, pin::JointModelRY(), X, name);
    case 2: return model.addJoint(parent, pin::JointModelRZ(), X, name);
    case 3: return model.addJoint(parent, pin::JointModelPX(), X, name);
    case 4: return model.addJoint(parent, pin::JointModelPY(), X, name);
    case 5: return model.addJoint(parent, pin::JointModelPZ(), X, name);
    case 6: return model.addJoint(parent, pin::JointModelRevoluteUnaligned(a), X, name);
    case 7: return model.addJoint(parent, pin::JointModelPrismaticUnaligned(a), X, name);
    case 8: return model.addJoint(parent, pin::JointModelFreeFlyer(), X, name);
    }
    throw std::runtime_error("joint " + name + ": unknown type " + std::to_string(type));
}

// The model of `path`; *frame is set to the frame record's frame (0 when there is none).
inline pinocchio::Model read_model(const std::string& path, pinocchio::FrameIndex* frame)
{
    namespace pin = pinocchio;
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error(path + ": cannot read");
    pin::Model model;
    *frame = 0;
    std::string kind;
    while (in >> kind) {
        if (kind == "gravity") {
            Eigen::Vector3d g;
            in >> g[0] >> g[1] >> g[2];
            model.gravity = pin::Motion(g, Eigen::Vector3d::Zero());
        } else if (kind == "joint") {
            int type, parent;
            Eigen::Vector3d a, c;
            in >> type >> parent >> a[0] >> a[1] >> a[2];
            const pin::SE3 X = read_se3(in);
            double m, I[6];
            in >> m >> c[0] >> c[1] >> c[2];
            for (double& v : I)
                in >> v;
            std::string name;
            in >> name;
            const pin::JointIndex id = add_joint(model, type, a, parent, X, name);
            Eigen::Matrix3d Ic;
            Ic << I[0], I[1], I[3], I[1], I[2], I[4], I[3], I[4], I[5];
            model.appendBodyToJoint(id, pin::Inertia(m, c, Ic), pin::SE3::Identity());
        } else if (kind == "frame") {
            int parent;
            in >> parent;
            const pin::SE3 X = read_se3(in);
            *frame = model.addFrame(pin::Frame("soagen_frame", parent, X, pin::OP_FRAME));
        } else {
            throw std::runtime_error(path + ": unknown record " + kind);
        }
        if (!in)
            throw std::runtime_error(path + ": malformed " + kind + " record");
    }
    return model;
}

}  // namespace peers
