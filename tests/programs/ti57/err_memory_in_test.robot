# In a test, a memory past R7 (R-A26).
1: ?1
2: T
test 1: R9 > 0
