# W-test-last: a test as the last step leads past the end either way.
1: T
2: R+1
3: ?1

test 1: enemy ahead
