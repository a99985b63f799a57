"""The hardware pages of ``montlab report hw``: one module per page (docs/hardware/<page>.md),
each built from sweep tables (montlab.hw.sweep) that it saves beside the page."""
