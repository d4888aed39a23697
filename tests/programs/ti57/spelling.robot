# Keywords are case-insensitive and spaces around the x tests are free.
1: lbl 2
2: sto 1
3: x = T
4: X >= t
5: inv   sbr
6: Gto 2
7: c.t
8: r/s
9: x <> t
