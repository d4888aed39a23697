# Two LBL 3 in one program (R-A24).
1: LBL 3
2: R+1
3: LBL 3
4: GTO 3
