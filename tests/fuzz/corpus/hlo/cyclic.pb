
~
cyclic 
a
call_bcall˜
²($
b
call_acall˜¢
²((
c
selffusion˜¢²M(0(0	