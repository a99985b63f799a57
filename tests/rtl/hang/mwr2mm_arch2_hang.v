// mwr2mm_arch2_hang: a test-only design that never raises done_o (Architecture 2 with done_o
// tied low and busy_o held high), so that the testbench's timeout can be shown to fire.
`default_nettype none

module mwr2mm_arch2_hang #(
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
  wire unused_busy, unused_done;
  mwr2mm_arch2 #(.N(N), .W(W)) u_core (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .start_i(start_i),
    .x_i    (x_i),
    .y_i    (y_i),
    .m_i    (m_i),
    .busy_o (unused_busy),
    .done_o (unused_done),
    .z_o    (z_o)
  );
  reg started_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) started_q <= 1'b0;
    else if (start_i) started_q <= 1'b1;
  end
  assign busy_o = started_q;
  assign done_o = 1'b0;
endmodule
