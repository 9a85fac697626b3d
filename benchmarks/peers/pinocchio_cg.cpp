// Pinocchio's own code generator for benchmarks/peers/run.py: its algorithms taped with
// CppADCodeGen through the CodeGen* classes of pinocchio/codegen/cppadcg-algo.hpp (the pin
// wheel's headers, the cmeel-cppad and cmeel-cppadcodegen headers, no patches), and the
// C of each saved for the harness, which compiles it with the flags of every other code.
//
//     pinocchio_cg MODEL_FILE OUT_DIR NAME...      NAME: rnea crba minv aba drnea daba
//
// writes OUT_DIR/NAME/ (the C sources CppADCodeGen saves for the model "cg_NAME"; the
// function timed is cg_NAME_forward_zero) and prints "NAME tape_s emit_s" per function:
// the seconds of taping the algorithm (CodeGenBase::initLib) and of emitting its C.
//
// The templates take minutes and gigabytes to compile, so the program is built from one
// translation unit per class (this file compiled with -DPEERS_CG_UNIT=1..6, and 0 for
// main), each compiled on its own, and cached by run.py outside the repository.
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>

#include "pin_model.hpp"

namespace peers {
void emit_rnea(const pinocchio::Model&, const std::string&);
void emit_crba(const pinocchio::Model&, const std::string&);
void emit_minv(const pinocchio::Model&, const std::string&);
void emit_aba(const pinocchio::Model&, const std::string&);
void emit_drnea(const pinocchio::Model&, const std::string&);
void emit_daba(const pinocchio::Model&, const std::string&);
}  // namespace peers

#if PEERS_CG_UNIT > 0
#include <sys/stat.h>

#include "pinocchio/codegen/cppadcg-algo.hpp"

namespace peers {

static double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Tape the algorithm of Gen (one CodeGen* class) on the model and save its C in dir/name.
template <class Gen>
static void emit(const pinocchio::Model& model, const char* name, const std::string& dir)
{
    const auto t0 = std::chrono::steady_clock::now();
    Gen gen(model, std::string("cg_") + name, std::string("cg_") + name);
    gen.initLib();
    gen.codeGenerator().setCreateJacobian(false);   // the function alone, as timed (rnea and aba default to both)
    const double tape = seconds_since(t0);
    const auto t1 = std::chrono::steady_clock::now();
    const std::string out = dir + "/" + name;
    mkdir(out.c_str(), 0755);
    CppAD::cg::ModelLibraryCSourceGen<double> library(gen.codeGenerator());
    CppAD::cg::SaveFilesModelLibraryProcessor<double>(library).saveSourcesTo(out);
    std::printf("%s %.3f %.3f\n", name, tape, seconds_since(t1));
    std::fflush(stdout);
}

#if PEERS_CG_UNIT == 1
void emit_rnea(const pinocchio::Model& m, const std::string& d) { emit<pinocchio::CodeGenRNEA<double>>(m, "rnea", d); }
#elif PEERS_CG_UNIT == 2
void emit_crba(const pinocchio::Model& m, const std::string& d) { emit<pinocchio::CodeGenCRBA<double>>(m, "crba", d); }
#elif PEERS_CG_UNIT == 3
void emit_minv(const pinocchio::Model& m, const std::string& d) { emit<pinocchio::CodeGenMinv<double>>(m, "minv", d); }
#elif PEERS_CG_UNIT == 4
void emit_aba(const pinocchio::Model& m, const std::string& d) { emit<pinocchio::CodeGenABA<double>>(m, "aba", d); }
#elif PEERS_CG_UNIT == 5
void emit_drnea(const pinocchio::Model& m, const std::string& d)
{
    emit<pinocchio::CodeGenRNEADerivatives<double>>(m, "drnea", d);
}
#elif PEERS_CG_UNIT == 6
void emit_daba(const pinocchio::Model& m, const std::string& d)
{
    emit<pinocchio::CodeGenABADerivatives<double>>(m, "daba", d);
}
#endif

}  // namespace peers

#else  // PEERS_CG_UNIT == 0: main

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: pinocchio_cg MODEL_FILE OUT_DIR NAME...\n");
        return 2;
    }
    try {
        pinocchio::FrameIndex frame;
        const pinocchio::Model model = peers::read_model(argv[1], &frame);
        const std::string dir = argv[2];
        for (int k = 3; k < argc; k++) {
            const std::string name = argv[k];
            if (name == "rnea") peers::emit_rnea(model, dir);
            else if (name == "crba") peers::emit_crba(model, dir);
            else if (name == "minv") peers::emit_minv(model, dir);
            else if (name == "aba") peers::emit_aba(model, dir);
            else if (name == "drnea") peers::emit_drnea(model, dir);
            else if (name == "daba") peers::emit_daba(model, dir);
            else {
                std::fprintf(stderr, "pinocchio_cg: unknown function %s\n", name.c_str());
                return 2;
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pinocchio_cg: %s\n", e.what());
        return 1;
    }
    return 0;
}

#endif
