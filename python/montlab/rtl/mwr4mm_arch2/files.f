mwr2mm_arch2/mwr2mm_arch2_pe.v
mwr2mm_arch2/mwr2mm_arch2.v
mwr4mm_arch2/mwr4mm_arch2.v
