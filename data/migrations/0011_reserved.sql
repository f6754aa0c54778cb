-- 0011: reserved. Another branch (w-prefs / w-themes) brings its own 0011; this branch's migration is 0012,
-- as issue 42's brief asks, and the files are numbered without gaps. Merging: take theirs for 0011.
SELECT 1;
