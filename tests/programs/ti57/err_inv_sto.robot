# INV goes with SUM, PRD, SBR, DSZ, C.t, x=t and x>=t only.
1: INV STO 1
