mwr2mm_tk/mwr2mm_tk_pe.v
mwr2mm_tk/mwr2mm_tk.v
