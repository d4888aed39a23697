1: T
2: RAZ
