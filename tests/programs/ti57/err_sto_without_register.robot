# STO needs the memory it stores into.
1: STO
