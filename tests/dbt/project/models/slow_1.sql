select sum(i % 7) as s from range(0, 60000000) t(i)
