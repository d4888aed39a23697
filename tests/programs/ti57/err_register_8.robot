# There are memories R0 to R7 only (R-A26).
1: STO 8
