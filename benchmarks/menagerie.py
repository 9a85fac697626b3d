"""Every model file of MuJoCo Menagerie against MuJoCo's own dynamics: the mass matrix
with armature, the bias forces, the passive forces, mj_inverse and mj_forward's qacc
(zero ctrl, no constraints), each as the largest relative error over random states
(soagen.oracles.mujoco.compare), with what MuJoCo simulates and soagen does not model
switched off in MuJoCo's model and named in the load warnings.

The files are those of the ``mujoco-menagerie`` package's registry (every top-level XML
of each robot that compiles), read from its cache or from a checkout named by
MENAGERIE_ROOT (``python benchmarks/menagerie.py [--states 3] [--json out.json]``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings


def entries():
    """(robot, entry, path or the reason there is none) for every registry entry."""
    import mujoco_menagerie as mm

    for name in mm.names():
        robot = mm.get(name)
        for entry in robot.entry_names:
            try:
                path = robot.xml(entry)
            except mm.MenagerieError as err:
                yield name, entry, err
                continue
            yield name, entry, str(path) if path.is_file() else FileNotFoundError(f"{path} is not in this copy")


def check(path, states):
    """(status, detail, agreement or None, warnings) of one file."""
    import soagen
    from soagen.errors import SoagenError
    from soagen.oracles.mujoco import compare

    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        try:
            robot = soagen.load(path)
        except SoagenError as err:
            compiles = "MuJoCo cannot compile it" not in str(err)
            return "refused" if compiles else "no compile", str(err), None, []
    try:
        agreement = compare(robot, path, states=states)
    except SoagenError as err:                 # e.g. a singular mass matrix at the state drawn
        return "refused", str(err), None, [str(w.message) for w in rec]
    return "compared", f"nv {robot.nv}", agreement, [str(w.message) for w in rec]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=3)
    parser.add_argument("--json", help="write the per-file results here")
    parser.add_argument("--tol", type=float, default=1e-8)
    args = parser.parse_args(argv)
    rows, start = [], time.perf_counter()
    for name, entry, path in entries():
        if not isinstance(path, str):
            rows.append({"robot": name, "entry": entry, "status": "absent", "detail": str(path)})
            print(f"{name}/{entry}: absent ({path})", flush=True)
            continue
        status, detail, agreement, notes = check(path, args.states)
        row = {"robot": name, "entry": entry, "status": status, "detail": detail, "warnings": notes}
        if agreement is not None:
            row.update(vars(agreement), worst=agreement.worst)
            row["status"] = "agrees" if agreement.worst < args.tol else "DISAGREES"
        rows.append(row)
        print(f"{name}/{entry}: {row['status']} {detail}" + (f" worst {row['worst']:.1e}" if "worst" in row else ""),
              flush=True)
    compared = [r for r in rows if "worst" in r]
    agree = [r for r in compared if r["status"] == "agrees"]
    print(f"\n{len(rows)} registry entries, {sum(r['status'] != 'absent' for r in rows)} files present, "
          f"{sum(r['status'] == 'no compile' for r in rows)} that MuJoCo cannot compile, "
          f"{len(compared)} compared, {len(agree)} agree within {args.tol:g}, "
          f"{sum(r['status'] == 'refused' for r in rows)} refused by soagen; {time.perf_counter() - start:.0f} s")
    if compared:
        worst = max(compared, key=lambda r: r["worst"])
        print(f"worst: {worst['robot']}/{worst['entry']} {worst['worst']:.2e}")
        for f in ("mass_matrix", "bias_forces", "passive_forces", "inverse_dynamics", "forward_dynamics"):
            print(f"  {f}: worst {max(r[f] for r in compared):.2e}")
    for r in rows:
        if r["status"] in ("refused", "DISAGREES", "no compile"):
            print(f"{r['status']}: {r['robot']}/{r['entry']}: {r['detail']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0 if all(r["status"] != "DISAGREES" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
