"""Reference models, one module per algorithm id (see :mod:`montlab.ref._base` for the contract).

They are naive, heavily asserted and step-for-step faithful to the papers, with the errata of
SPEC fixed. They are the oracle for the native engines and the RTL, and are themselves checked
against Python's ``pow``.
"""
