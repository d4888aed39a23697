# A number as a step is an i32 (R-A26).
1: 2147483648
