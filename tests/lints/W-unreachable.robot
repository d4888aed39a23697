# W-unreachable: `RAZ` at step 3 always sends the robot back to step 1, so
# steps 4 and 5 are never read. Step 6 is commented as meant for radio
# signals: it is not reported.
1: R+1
2: T
3: RAZ
4: D+1
5: D+1
6: D+2    # signal only: charge
