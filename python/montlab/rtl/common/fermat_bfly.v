// fermat_bfly: a pipelined shift-only butterfly modulo q = 2^K + 1.
//
// Citation: ISM3 eq. (3) (X_k = x_2k + x_2k+1 omega^P, X_k+d/2 = x_2k - x_2k+1 omega^P, SPEC
//   2.2) and FMLM3 eqs. (7)-(9) (SPEC 1.2): one butterfly whose twiddle is a power of two.
//   Python model: montlab.transforms._ism3_stage / _cg_network, one (n, n + P/2) pair.
// Parameters: K (q = 2^K + 1, K >= 2); EW exponent bits (fermat_shift's rule); TW tag bits
//   (TW >= 1: an address or index that travels with the pair); LATENCY clock edges from input
//   to output (LATENCY >= 1).
// Function: t = b_i * 2^e_i mod q; s_o = a_i + t mod q, d_o = a_i - t mod q. A power omega^j =
//   2^(g j) of a root 2^g is e_i = g j mod 2K; the inverse uses 2K - (g j mod 2K).
// Ranges: a_i, b_i in [0, q); any e_i < 2^EW; s_o, d_o in [0, q).
// Left out: the scaling by 2^-L of an inverse transform (a fermat_shift after the last stage)
//   and the signed redundant inputs of ISM3 (normalised before the butterfly).
// Schedule: inputs presented in cycle c (valid_i, tag_i, operands) give valid_o, tag_o, s_o and
//   d_o in cycle c + LATENCY (one pair per clock, no stall). LATENCY = 1: shift and sums in one
//   cycle, then the output rank. LATENCY >= 2: a rank after the shift, one after the sums, and
//   LATENCY - 2 further ranks (FMLM3's 6-cycle butterfly structure is LATENCY = 6). valid_o
//   is reset by rst_ni (asynchronous, active low); data ranks have no reset.
`default_nettype none

module fermat_bfly #(
  parameter integer K       = 8,
  parameter integer EW      = $clog2(2 * K),
  parameter integer TW      = 1,
  parameter integer LATENCY = 2
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire          valid_i,
  input  wire [TW-1:0] tag_i,
  input  wire [K:0]    a_i,
  input  wire [K:0]    b_i,
  input  wire [EW-1:0] e_i,
  output wire          valid_o,
  output wire [TW-1:0] tag_o,
  output wire [K:0]    s_o,
  output wire [K:0]    d_o
);
  localparam integer R1 = (LATENCY >= 2) ? 1 : 0;   // rank after the shift
  localparam integer R2 = LATENCY - R1;             // ranks after the sums

  generate
    if (K < 2 || TW < 1 || LATENCY < 1) begin : g_illegal
      fermat_bfly_illegal_parameters u_stop ();
    end
  endgenerate

  // The shift, then rank 1 (a, t, tag, valid).
  wire [K:0] t;
  fermat_shift #(.K(K), .EW(EW)) u_shift (.x_i(b_i), .e_i(e_i), .y_o(t));

  wire [K:0]    a1, t1;
  wire [TW-1:0] tag1;
  wire          v1;
  delay_line #(.W(2 * K + 2 + TW), .N(R1)) u_d1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({a_i, t, tag_i}), .q_o({a1, t1, tag1})
  );
  delay_line #(.W(1), .N(R1), .RST(1)) u_v1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(valid_i), .q_o(v1)
  );

  // The sums, then the remaining ranks.
  wire [K:0] s, d;
  fermat_addsub #(.K(K)) u_addsub (.a_i(a1), .b_i(t1), .s_o(s), .d_o(d));

  delay_line #(.W(2 * K + 2 + TW), .N(R2)) u_d2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({s, d, tag1}), .q_o({s_o, d_o, tag_o})
  );
  delay_line #(.W(1), .N(R2), .RST(1)) u_v2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(v1), .q_o(valid_o)
  );
endmodule
