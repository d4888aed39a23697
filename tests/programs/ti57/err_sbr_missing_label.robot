# SBR to a label the program lacks (R-A24).
1: SBR 2
2: R+1
