// mwr4mm_arch2: radix-4 Montgomery multiplier, Huang et al.'s Architecture 2 with four-branch PEs.
//
// Citation: Huang, Gaj, El-Ghazawi, IEEE TC 60(7) 2011, Sec. 5, Algorithm 6, eqs. (8)-(10);
//   SPEC 5.4-5.5 (erratum 3: r = 4^ceil(n/2)). Python model: montlab.ref.mwr4mm.
// Parameters: N operand bits (N >= W); W word bits, even, W >= 4 (a radix-4 digit never
//   straddles two words, and the select bits and q^(i) do not depend on the assumed top bits).
//   E = ceil((N+1)/W) PEs, ceil(N/2) rounds of one radix-4 digit x^(i) = (x_{2i+1}, x_{2i}).
// Function: z_o = x*y*4^(-ceil(N/2)) mod m, 0 <= z_o < 2m (no final subtraction).
// Ranges, interface, schedule and what is left out: as mwr2mm_arch2 with K = 2, which this
//   module instantiates: done_o rises ceil(N/2) + E - 1 clock edges after start_i is taken.
//   Each PE keeps four branches (the two bits shifted in from the next word are unknown);
//   PE 0 computes q^(i) in 0..3 from eq. (8) (the same values as Algorithm 6's 7-bit table).
// Left out: Booth recoding, the four-way precomputation of x*Y + q*M for PE 0 (Sec. 5, item 2).
`default_nettype none

module mwr4mm_arch2 #(
  parameter integer N = 64,
  parameter integer W = 16
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         start_i,
  input  wire [N-1:0] x_i,
  input  wire [N-1:0] y_i,
  input  wire [N-1:0] m_i,
  output wire         busy_o,
  output wire         done_o,
  output wire [N:0]   z_o
);
  mwr2mm_arch2 #(
    .N(N),
    .W(W),
    .K(2)
  ) u_core (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .start_i(start_i),
    .x_i    (x_i),
    .y_i    (y_i),
    .m_i    (m_i),
    .busy_o (busy_o),
    .done_o (done_o),
    .z_o    (z_o)
  );
endmodule
