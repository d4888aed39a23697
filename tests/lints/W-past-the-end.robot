# W-past-the-end: after step 3 the robot reads past the last step and idles
# for the rest of the match (R-A10). Ending with `GO 1` would loop.
1: D+1
2: T
3: R+1
