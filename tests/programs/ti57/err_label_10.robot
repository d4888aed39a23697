# Labels are 0 to 9 (R-A24).
1: LBL 10
2: R+1
