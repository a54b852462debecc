import { labelsIn } from './sched-copy.tmp.ts';
for (const t of ['SCHEDULE OF PARTICULARS 1. Name of the Trust The TH & AJ García Family Trust 2. Date of this Deed May 3, 2008 3. Settlor Isla', 'SCHEDULE OF PARTICULARS 1. Name of the Trust The TH & AJ Garcia Family Trust 2. Date of this Deed May 3, 2008 3. Settlor Isla'])
console.log(labelsIn(t, 0, t.length).map((l) => l.core));
