// fermat_comb_tb: test harness, one build for the combinational Fermat-ring blocks at one K.
// fermat_addsub on (a_i, b_i), fermat_shift on (x_i, e_i), fermat_reduce on (neg_i, mag_i),
// side by side and unconnected to each other.
`default_nettype none

module fermat_comb_tb #(
  parameter integer K  = 8,
  parameter integer EW = $clog2(2 * K)
) (
  input  wire [K:0]     a_i,
  input  wire [K:0]     b_i,
  output wire [K:0]     s_o,
  output wire [K:0]     d_o,
  input  wire [K:0]     x_i,
  input  wire [EW-1:0]  e_i,
  output wire [K:0]     y_o,
  input  wire           neg_i,
  input  wire [2*K+1:0] mag_i,
  output wire [K+2:0]   step_o,
  output wire [K:0]     res_o
);
  fermat_addsub #(.K(K)) u_addsub (.a_i(a_i), .b_i(b_i), .s_o(s_o), .d_o(d_o));
  fermat_shift #(.K(K), .EW(EW)) u_shift (.x_i(x_i), .e_i(e_i), .y_o(y_o));
  fermat_reduce #(.K(K)) u_reduce (.neg_i(neg_i), .mag_i(mag_i), .step_o(step_o), .res_o(res_o));
endmodule
