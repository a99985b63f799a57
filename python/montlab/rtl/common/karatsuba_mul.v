// karatsuba_mul: a pipelined unsigned W x W multiplier by subtractive Karatsuba.
//
// Citation, parameters, function, ranges and schedule: karatsuba_core, which this module wraps
//   unchanged (ISM3 Sec. IV-C and Fig. 4; 34-, 66- and 130-bit multipliers on 3, 9 and 27 base
//   multipliers with latency 3 + 4 levels at the defaults). Python model: a * b.
// Left out: nothing beyond karatsuba_core. The wrapper exists because a recursive module is not
//   elaborated fully as the top of a Verilator run: every design and test instantiates
//   karatsuba_mul, and karatsuba_core recurses below it.
`default_nettype none

module karatsuba_mul #(
  parameter integer W         = 34,
  parameter integer BASE_W    = 17,
  parameter integer BASE_LAT  = 3,
  parameter integer LEVEL_LAT = 4,
  parameter integer SW        = 1
) (
  input  wire           clk_i,
  input  wire           rst_ni,
  input  wire           valid_i,
  input  wire [SW-1:0]  side_i,
  input  wire [W-1:0]   a_i,
  input  wire [W-1:0]   b_i,
  output wire           valid_o,
  output wire [SW-1:0]  side_o,
  output wire [2*W-1:0] p_o
);
  karatsuba_core #(
    .W(W), .BASE_W(BASE_W), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT), .SW(SW)
  ) u_core (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .side_i(side_i), .a_i(a_i), .b_i(b_i),
    .valid_o(valid_o), .side_o(side_o), .p_o(p_o)
  );
endmodule
