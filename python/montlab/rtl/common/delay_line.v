// delay_line: N register ranks on a W-bit word (N = 0: a wire).
//
// A montlab building block shared by the pipelined blocks (fermat_bfly, karatsuba_core,
//   fermat_mul, fermat_ntt, ntt64_modmul, ntt64_pe) and the designs: it aligns words that
//   travel beside a datapath.
// Parameters: W bits (W >= 1); N ranks (N >= 0); RST 0 = no reset (data), 1 = asynchronous
//   active-low reset of every rank to 0 (valid tokens).
// Function: q_o in cycle c + N is d_i of cycle c (N = 0: q_o = d_i).
// Ranges: any d_i. Parameters outside their ranges stop elaboration.
// Left out: clock enable (the pipelines that use it never stall).
// Schedule: at every rising edge rank 0 takes d_i and rank j takes rank j - 1.
`default_nettype none

module delay_line #(
  parameter integer W   = 1,
  parameter integer N   = 1,
  parameter integer RST = 0
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire [W-1:0] d_i,
  output wire [W-1:0] q_o
);
  genvar j;
  generate
    // Illegal parameters stop elaboration (Verilog-2001 has no $error): no such module exists.
    if (W < 1 || N < 0 || RST < 0 || RST > 1) begin : g_illegal
      delay_line_illegal_parameters u_stop ();
    end

    if (N == 0) begin : g_wire
      assign q_o = d_i;
      wire unused_clk = ^{clk_i, rst_ni};
    end else begin : g_regs
      wire [W-1:0] rk [0:N];
      assign rk[0] = d_i;
      for (j = 0; j < N; j = j + 1) begin : g_rank
        reg [W-1:0] r_q;
        if (RST == 1) begin : g_rst
          always @(posedge clk_i or negedge rst_ni) begin
            if (!rst_ni) r_q <= {W{1'b0}};
            else r_q <= rk[j];
          end
        end else begin : g_norst
          always @(posedge clk_i) r_q <= rk[j];
        end
        assign rk[j+1] = r_q;
      end
      assign q_o = rk[N];
      if (RST == 0) begin : g_unused
        wire unused_rst = rst_ni;
      end
    end
  endgenerate
endmodule
