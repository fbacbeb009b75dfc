// Injected into a page of stall-table --html by t0600: reads the page as a person would
// see it and writes what it found into a pre element with the id probe, for --dump-dom.
(function () {
	const out = [];
	const picker = document.getElementById('kernel');
	for (const o of Array.from(picker.options)) {
		picker.value = o.value;
		picker.dispatchEvent(new Event('change'));
		const lanes = document.querySelectorAll('#labels .lane');
		let bars = 0, rows = 0;
		for (const l of lanes) { bars += Number(l.dataset.bars); rows += Number(l.dataset.rows); }
		const painted = Number(document.getElementById('tl').dataset.drawn) > 0 ? 'painted' : 'blank';
		out.push(['kernel', o.textContent, lanes.length, bars, rows, painted,
			document.querySelectorAll('#insts tbody tr').length].join('\t'));
	}
	// The kernel of the address (#kernel=NAME), else the first: click the longest bar of
	// its first lane, in the middle of the bar, where it is on the screen.
	const want = /^#kernel=(.*)$/.exec(location.hash);
	if (want) window.stallTimeline.select(decodeURIComponent(want[1]));
	else window.stallTimeline.select(picker.options[0].textContent);
	const TL = JSON.parse(document.getElementById('stall-timeline').textContent);
	const k = TL.kernels.find(k => k.kernel === window.stallTimeline.kernel());
	const lane = k.groups[0].lanes[0], b = lane.bars;
	let best = 0;
	for (let i = 1; i < b.length / 6; i++) if (b[6 * i + 1] > b[6 * best + 1]) best = i;
	const div = document.querySelector('#labels .lane');
	const y = div.getBoundingClientRect().top + 8;
	const x = window.stallTimeline.clientX(b[6 * best] + b[6 * best + 1] / 2);
	const target = document.elementFromPoint(x, y);
	out.push(['target', target ? target.id : 'none', div.dataset.event, div.dataset.slot,
		div.dataset.wave].join('\t'));
	const ev = t => target.dispatchEvent(new MouseEvent(t, { clientX: x, clientY: y, bubbles: true }));
	ev('mousedown'); ev('mouseup'); ev('click');
	const text = id => { const e = document.getElementById(id); return e ? e.textContent : '-'; };
	out.push(['detail', text('d-pc'), text('d-inst'), text('d-cycles'), text('d-cause')].join('\t'));
	// hover: the tip names the same instruction
	ev('mousemove');
	out.push(['tip', document.getElementById('tip').style.display,
		document.getElementById('tip').textContent.split('\n')[0]].join('\t'));
	// zoom: the + button halves the span around its middle; a drag of 100 pixels to the
	// left moves the view right by 100 pixels' worth of cycles
	const [a0, a1] = window.stallTimeline.view();
	document.getElementById('zoom-in').click();
	const [b0, b1] = window.stallTimeline.view();
	const w = document.getElementById('tl').clientWidth;
	target.dispatchEvent(new MouseEvent('mousedown', { clientX: x, clientY: y, bubbles: true }));
	window.dispatchEvent(new MouseEvent('mousemove', { clientX: x - 100, clientY: y, bubbles: true }));
	window.dispatchEvent(new MouseEvent('mouseup', { clientX: x - 100, clientY: y, bubbles: true }));
	const [c0, c1] = window.stallTimeline.view();
	const near = (p, q) => Math.abs(p - q) <= 1e-6 * Math.max(1, Math.abs(q));
	out.push(['zoom', near(b1 - b0, (a1 - a0) / 2) && near(b0 + b1, a0 + a1) ? 'halved' : [a0, a1, b0, b1].join()].join('\t'));
	out.push(['pan', near(c0 - b0, 100 / w * (b1 - b0)) && near(c1 - c0, b1 - b0) ? 'moved' : [b0, b1, c0, c1].join()].join('\t'));
	out.push(['note', document.getElementById('note').textContent].join('\t'));
	// sorting: by pc, ascending, on a click of its header
	document.querySelector('#insts th[data-k="pc"]').click();
	const pcs = Array.from(document.querySelectorAll('#insts tbody tr td:first-child')).map(td => td.textContent);
	const sorted = pcs.slice().sort((a, b) => parseInt(a, 16) - parseInt(b, 16));
	out.push(['sort', pcs.length > 1 && pcs.join() === sorted.join() ? 'pc ascending' : 'unsorted: ' + pcs.join()].join('\t'));
	const pre = document.createElement('pre');
	pre.id = 'probe';
	pre.textContent = out.join('\n');
	document.body.appendChild(pre);
})();
