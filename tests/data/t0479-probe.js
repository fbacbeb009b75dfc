// Injected into the page of fixtures/traces/twocause by t0479: the bars of its rows of two
// causes split in two, each part in its cause's colour (read back from the canvas), and
// what a hover and a click on such a bar say, written into a pre element for --dump-dom.
(function () {
	const out = [];
	try {
	const TL = JSON.parse(document.getElementById('stall-timeline').textContent);
	const tl = document.getElementById('tl');
	const k = TL.kernels[0];
	window.stallTimeline.view(k.t0 - k.t0, k.t1 - k.t0);
	out.push('split ' + tl.dataset.split);
	out.push('legend ' + Array.from(document.querySelectorAll('#legend span')).map(s => s.textContent).join(' '));
	const g = tl.getContext('2d'), rc = tl.getBoundingClientRect(), scale = tl.width / tl.clientWidth;
	const lanes = Array.from(document.querySelectorAll('#labels .lane'));
	// the colour of lane n at cycle t (from t0), #rrggbb; a main part is read at 9/10 of
	// its length, past the instruction's text that a wide bar holds at its start
	const colour = (n, t) => {
		const y = lanes[n].getBoundingClientRect().top + 8;
		const x = window.stallTimeline.clientX(t);
		const p = g.getImageData(Math.floor((x - rc.left) * scale), Math.floor((y - rc.top) * scale), 1, 1).data;
		return '#' + [p[0], p[1], p[2]].map(v => v.toString(16).padStart(2, '0')).join('');
	};
	k.groups[0].lanes.forEach((l, n) => {
		const b = l.bars, c2 = l.cause2 || [];
		for (let j = 0; j < c2.length; j += 3) {
			const o = 6 * c2[j], main = b[o + 1] - c2[j + 2];
			out.push(['bar', 'slot ' + l.slot, TL.insts[b[o + 2]][1], TL.causes[b[o + 3]], main,
				colour(n, b[o] + main * 0.9), TL.causes[c2[j + 1]], c2[j + 2],
				colour(n, b[o] + main + c2[j + 2] / 2)].join('\t'));
		}
	});
	// a click and a hover on the first bar of the first lane (slot 0's first s_sleep)
	const y = lanes[0].getBoundingClientRect().top + 8, b0 = k.groups[0].lanes[0].bars;
	const x = window.stallTimeline.clientX(b0[0] + b0[1] / 2), target = document.elementFromPoint(x, y);
	const ev = t => target.dispatchEvent(new MouseEvent(t, { clientX: x, clientY: y, bubbles: true }));
	ev('mousedown'); ev('mouseup'); ev('click'); ev('mousemove');
	const text = id => { const e = document.getElementById(id); return e ? e.textContent : '-'; };
	out.push(['detail', text('d-inst'), text('d-cycles'), text('d-cause'), text('d-cause2')].join('\t'));
	out.push(['tip', document.getElementById('tip').textContent.split('\n')[1]].join('\t'));
	} catch (e) { out.push('error ' + e); }
	const pre = document.createElement('pre');
	pre.id = 'probe';
	pre.textContent = out.join('\n');
	document.body.appendChild(pre);
})();
