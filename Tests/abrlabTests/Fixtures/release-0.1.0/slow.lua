return { choose = function(ctx) local x = 0; for i = 1, 2000000 do x = x + i end; return 1 end }
