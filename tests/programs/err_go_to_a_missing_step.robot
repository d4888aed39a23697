1: T
2: GO 7
