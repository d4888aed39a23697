# GTO to a label the program lacks (R-A24).
1: R+1
2: GTO 5
