"""The statuses the symbolic layer reports, as enums (string-valued, so reports and JSON print
the same words as before): a catalogue record's verdict, the N-free engine's verdict on one form
of a record, `soagen prove`'s result, and the kind of a misprint.  A module of its own so that the
CLI can name them without importing the engines."""

from enum import StrEnum


class RecordResult(StrEnum):
    """The verdict on one catalogue record (:mod:`soagen.symbolic.evidence.verify`)."""

    PROVED = "proved"
    MISPRINT = "misprint"       # the printed form refuted, the correction proved
    FAILED = "FAILED"


class AllNStatus(StrEnum):
    """What the N-free engine says about one form of a record."""

    PROVED = "proved"
    NONZERO = "nonzero"         # not reduced to 0 (not a refutation)
    ILL_TYPED = "ill-typed"
    NOT_APPLICABLE = "n/a"      # no such form, or a block-level statement


class ProveResult(StrEnum):
    """What `soagen prove` concludes (the table of docs/all-n-proofs.md)."""

    PROVED_ALL_N = "proved-all-n"
    REFUTED = "refuted"
    ILL_TYPED = "ill-typed"
    PROVED_UP_TO_N = "proved-up-to-n"
    UNDECIDED = "undecided"


class MisprintKind(StrEnum):
    """Whom a misprint is due to (docs/misprints.md)."""

    PAPER = "paper"             # an error of the authors
    OCR = "ocr"                 # likely damage by the OCR of the scan
