-- 0004: reserved for the ratings migration of another branch (w-rank), so this branch can number its own
-- 0005 as asked. When the branches merge, the ratings file takes this number and this file goes.
SELECT 1;
