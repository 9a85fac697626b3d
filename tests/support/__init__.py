"""What the tests share, one package (imported as ``tests.support.<module>``; no test module
imports another, nothing edits sys.path):

* :mod:`.accuracy`         rel_err, the suite's one relative error, naming its worst entry
* :mod:`.robot_files`      small robot files (YAML, URDF) and the pieces of URDFs the loader tests write
* :mod:`.erd`              the robots of example-robot-data (optional), or a skip
* :mod:`.oracles`          MuJoCo and Pinocchio in soagen's coordinates
* :mod:`.derivatives`      random trees and states, finite differences in the tangent space
* :mod:`.codegen`          generate, compile and compare generated code
* :mod:`.sympy_reference`  the SymPy reference implementation of the unrolling
* :mod:`.systems`          the bundled closed-chain systems, variants, closure errors
* :mod:`.loops`            loops inside one robot: closed states, MuJoCo's qpos, Pinocchio's constraintDynamics
* :mod:`.installed`        the soagen under test (checkout or wheel) for child Pythons
"""
