// The hosted verification page's script (verification-page.ts renders every step, hidden but one). It
// moves between the steps, sends each to the session API, and shows the outcome.
//
// The session lives in an HttpOnly cookie set when the person consents, so this script never holds a
// token: every call is same-origin with the cookie. Photos are made smaller here before they are sent
// (a long edge of at most 2000 px, re-encoded as JPEG) when they are big; the service judges every file
// by its bytes, so a file this browser cannot read is sent as it is and the service says what is wrong.
(function () {
  'use strict';

  var flow = document.getElementById('flow');
  if (!flow) return;

  var maxPhotoBytes = 2 * 1024 * 1024;
  var maxPhotoEdge = 2000;
  var pollMs = 2000;
  var stepNumbers = { details: 1, document: 2, selfie: 3, review: 4 };
  var partnerName = flow.querySelector('.partner').textContent;
  var sessionUrl = flow.dataset.sessionUrl;

  var state = {
    step: flow.dataset.step,
    completed: flow.dataset.completed ? flow.dataset.completed.split(' ') : [],
    // After a failed attempt with attempts left, the document and selfie are taken again.
    retrying: false,
    redone: {},
    // The camera was refused or failed: the upload is the only way left.
    cameraRefused: false,
  };
  /** Photos ready to send, by input id, and the work of preparing one still under way. */
  var photos = {};
  var preparing = {};
  var camera = null;
  var pollTimer = null;

  function byId(id) {
    return document.getElementById(id);
  }

  function each(list, fn) {
    Array.prototype.forEach.call(list, fn);
  }

  function on(id, event, handler) {
    byId(id).addEventListener(event, handler);
  }

  // ---- talking to the service ----

  function call(method, url, body) {
    var init = { method: method, credentials: 'same-origin', headers: { accept: 'application/json' } };
    if (body instanceof window.FormData) init.body = body;
    else if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(function (res) {
      return res.json().then(
        function (json) {
          return { status: res.status, body: json };
        },
        function () {
          return { status: res.status, body: {} };
        },
      );
    });
  }

  function busy(text) {
    byId('busy').textContent = text || '';
    each(flow.querySelectorAll('button'), function (button) {
      button.disabled = Boolean(text);
    });
  }

  // ---- where the person is ----

  function applyView(view) {
    state.completed = view.completedSteps || [];
    var left = view.attemptsRemaining;
    each(flow.querySelectorAll('.attempts-left'), function (span) {
      span.textContent = left === 1 ? '1 attempt' : left + ' attempts';
    });
  }

  function saved(step) {
    return state.completed.indexOf(step) >= 0 && (!state.retrying || step === 'details' || state.redone[step] === true);
  }

  function firstMissing() {
    var order = ['details', 'document', 'selfie'];
    for (var i = 0; i < order.length; i++) if (!saved(order[i])) return order[i];
    return 'review';
  }

  /** The person's outcome, by their status first: an operator's decision leaves the attempt at MANUAL_REVIEW. */
  var outcomes = { PASSED: 'passed', MANUALLY_PASSED: 'passed', MANUAL_REVIEW: 'review-manual', LOCKED_OUT: 'locked', FAILED: 'failed' };

  /** The same reading of a session as the server's (verification-page.ts stepOf). */
  function stepOf(view) {
    var attempt = view.attempt && view.attempt.status;
    var outcome = outcomes[view.individual.status] || outcomes[attempt];
    if (outcome) return outcome;
    if (attempt === 'CHECKING') return 'checking';
    if (attempt === 'RETRY' && !state.retrying) return 'retry';
    if (attempt === 'UNAVAILABLE' && !state.retrying) return 'unavailable';
    return firstMissing();
  }

  function showStep(name, options) {
    var initial = options && options.initial;
    if (name !== 'selfie') stopCamera();
    if (name !== 'checking') clearTimeout(pollTimer);
    clearErrors();
    busy('');
    state.step = name;
    each(flow.querySelectorAll('.step'), function (section) {
      section.hidden = section.id !== 'step-' + name;
    });
    var number = stepNumbers[name];
    byId('progress').hidden = !number;
    if (number) {
      byId('progress-number').textContent = String(number);
      each(flow.querySelectorAll('.progress-bar li'), function (li, i) {
        li.className = i < number ? 'done' : '';
      });
    }
    var title = byId('step-' + name + '-title');
    document.title = (number ? 'Step ' + number + ' of 4: ' : '') + title.textContent + ' · ' + partnerName;
    if (name === 'selfie') prepareSelfieStep();
    if (name === 'review') showSavedSteps();
    if (name === 'checking') poll();
    // A new step is announced by moving to its heading; the first one a person sees is simply the page.
    if (!initial) {
      window.scrollTo(0, 0);
      title.focus();
    }
  }

  function showEnded(title, reason) {
    if (title) byId('step-ended-title').textContent = title;
    if (reason) byId('ended-reason').textContent = reason;
    showStep('ended');
  }

  // ---- errors: beside each field, and in a summary that is announced and focused ----

  function clearErrors() {
    var summary = byId('errors');
    summary.hidden = true;
    summary.textContent = '';
    each(flow.querySelectorAll('.field-error'), function (p) {
      p.hidden = true;
      p.textContent = '';
    });
    each(flow.querySelectorAll('[aria-invalid]'), function (control) {
      control.removeAttribute('aria-invalid');
    });
  }

  /** The API's words after the field's: `Your date of birth cannot be in the future.` */
  function sentence(name, message) {
    var m = String(message || '').trim();
    var text = /^(must|cannot|is|are|has|have|was|should)\b/.test(m) ? name + ' ' + m : /^(not|larger|smaller|too)\b/.test(m) ? name + ' is ' + m : name + ': ' + m;
    return /[.!?]$/.test(text) ? text : text + '.';
  }

  /** The field a problem's pointer names on the step shown, if it has one. */
  function fieldAt(pointer) {
    var fields = byId('step-' + state.step).querySelectorAll('[data-pointer]');
    for (var i = 0; i < fields.length; i++) if (pointer && fields[i].dataset.pointer === pointer) return fields[i];
    return null;
  }

  function firstControl(container) {
    var controls = container.querySelectorAll('input, select');
    for (var i = 0; i < controls.length; i++) if (!controls[i].hidden && !controls[i].disabled) return controls[i];
    return null;
  }

  /** problems: [{ pointer?, text }] for fields found by their pointer, or for the page as a whole. */
  function showProblems(problems) {
    clearErrors();
    busy('');
    var summary = byId('errors');
    var heading = document.createElement('p');
    heading.className = 'errors-title';
    heading.textContent = problems.length === 1 ? 'There is a problem' : 'There are ' + problems.length + ' problems';
    summary.appendChild(heading);
    var list = document.createElement('ul');
    problems.forEach(function (problem) {
      var container = fieldAt(problem.pointer);
      // A field this document type does not show is named in the summary, but cannot be gone to.
      var control = container && !container.closest('[hidden]') && firstControl(container);
      var item = document.createElement('li');
      if (control) {
        var link = document.createElement('a');
        link.href = '#' + control.id;
        link.textContent = problem.text;
        link.addEventListener('click', function (event) {
          event.preventDefault();
          control.focus();
        });
        item.appendChild(link);
        var line = container.querySelector('.field-error');
        if (line) {
          line.textContent = line.textContent ? line.textContent + ' ' + problem.text : problem.text;
          line.hidden = false;
        }
        each(container.querySelectorAll('input, select'), function (input) {
          if (input.type !== 'radio' || input === control) input.setAttribute('aria-invalid', 'true');
        });
      } else item.textContent = problem.text;
      list.appendChild(item);
    });
    summary.appendChild(list);
    summary.hidden = false;
    summary.focus();
  }

  /** The service's own sentence (its detail), as the page prints one. */
  function asSentence(text) {
    var t = String(text).trim();
    t = t.charAt(0).toUpperCase() + t.slice(1);
    return /[.!?]$/.test(t) ? t : t + '.';
  }

  /** The service's problems in the person's words, each at its field when the step has it. */
  function problemsOf(body) {
    if (body.errors && body.errors.length) {
      return body.errors.map(function (e) {
        var container = fieldAt(e.pointer);
        return { pointer: e.pointer, text: container ? sentence(container.dataset.name, e.message) : asSentence(e.message) };
      });
    }
    return [{ text: body.detail ? asSentence(body.detail) : 'Something went wrong. Try again.' }];
  }

  /** What every call does with an answer that is not its success. */
  function failed(res) {
    if (res.status === 401) return showEnded();
    if (res.status === 409) {
      // The flow moved on without this page (another tab, the checks): go where the session is now.
      return call('GET', sessionUrl).then(function (now) {
        if (now.status === 401) return showEnded();
        if (now.status !== 200) return showProblems(problemsOf(res.body));
        applyView(now.body);
        var next = stepOf(now.body);
        if (next !== state.step) showStep(next);
        // An outcome or the checks say what happened in their own words; a step says what is missing.
        if (stepNumbers[next]) showProblems(problemsOf(res.body));
      });
    }
    if (res.status === 503 && !res.body.detail) return showProblems([{ text: 'The service is busy. Nothing you entered is lost: try again in a moment.' }]);
    showProblems(problemsOf(res.body));
  }

  function unreachable() {
    showProblems([{ text: 'We could not reach the service. Check your internet connection and try again.' }]);
  }

  // ---- reading the forms ----

  function value(id) {
    return byId(id).value.trim();
  }

  function daysIn(month, year) {
    return new Date(Date.UTC(year, month, 0)).getUTCDate();
  }

  /**
   * The date in boxes `<id>-day|month|year` as YYYY-MM-DD; '' when all are empty. Without a day, when
   * allowed, the month's last day (a card valid to 05/2030 is valid through its last day).
   */
  function readDate(id, words, options) {
    var day = value(id + '-day');
    var month = value(id + '-month');
    var year = value(id + '-year');
    if (!day && !month && !year) return { date: '' };
    var noDay = !day && options.monthOnly;
    if (!/^\d{4}$/.test(year) || !/^\d{1,2}$/.test(month) || (!noDay && !/^\d{1,2}$/.test(day))) return { problem: words };
    var y = Number(year);
    var m = Number(month);
    var d = noDay ? daysIn(m, y) : Number(day);
    if (m < 1 || m > 12 || d < 1 || d > daysIn(m, y)) return { problem: words };
    var pad = function (n) {
      return (n < 10 ? '0' : '') + n;
    };
    return { date: y + '-' + pad(m) + '-' + pad(d) };
  }

  function readDetails() {
    var problems = [];
    var body = { address: {} };
    var need = function (id, pointer, text) {
      var v = value(id);
      if (!v) problems.push({ pointer: pointer, text: text });
      return v;
    };
    body.firstName = need('first-name', '/firstName', 'Enter your first name.');
    if (value('middle-name')) body.middleName = value('middle-name');
    body.lastName = need('last-name', '/lastName', 'Enter your last name.');
    var born = readDate('dob', 'Your date of birth must be a real date, for example 27 3 1985.', {});
    if (born.problem) problems.push({ pointer: '/dateOfBirth', text: born.problem });
    else if (!born.date) problems.push({ pointer: '/dateOfBirth', text: 'Enter your date of birth.' });
    body.dateOfBirth = born.date;
    var country = value('country');
    body.address.line1 = need('line1', '/address/line1', 'Enter your street address.');
    if (value('line2')) body.address.line2 = value('line2');
    body.address.locality = need('locality', '/address/locality', 'Enter your suburb or town.');
    body.address.state =
      country === 'AU' ? need('state', '/address/state', 'Choose your state or territory.') : need('state-other', '/address/state', 'Enter your state, province or region.');
    body.address.postcode = need('postcode', '/address/postcode', 'Enter your postcode.');
    if (country === 'AU' && body.address.postcode && !/^\d{4}$/.test(body.address.postcode)) problems.push({ pointer: '/address/postcode', text: 'Enter a postcode of 4 digits.' });
    body.address.country = country;
    if (value('email')) body.email = value('email');
    if (value('phone')) body.phone = value('phone');
    return { body: body, problems: problems };
  }

  var numberWords = { PASSPORT: 'Enter the passport number.', DRIVER_LICENCE: 'Enter the licence number.', MEDICARE: 'Enter the Medicare card number.' };

  function documentType() {
    var checked = flow.querySelector('input[name="type"]:checked');
    return checked ? checked.value : '';
  }

  function readDocument() {
    var problems = [];
    var type = documentType();
    if (!type) return { problems: [{ pointer: '/type', text: 'Choose the document you will use.' }] };
    var form = new window.FormData();
    form.append('type', type);
    var number = value('doc-number');
    if (!number) problems.push({ pointer: '/number', text: numberWords[type] });
    form.append('number', number);
    form.append('issuingCountry', type === 'PASSPORT' ? value('issuing-country') : 'AU');
    if (type === 'DRIVER_LICENCE') {
      if (!value('issuing-state')) problems.push({ pointer: '/issuingState', text: 'Choose the state or territory that issued your licence.' });
      form.append('issuingState', value('issuing-state'));
    }
    var card = value('card-number').replace(/\s/g, '');
    if (type === 'MEDICARE' && !card) problems.push({ pointer: '/cardNumber', text: 'Enter your number on the card: the number next to your name.' });
    if (type !== 'PASSPORT' && card) form.append('cardNumber', card);
    var expiry = readDate('expiry', 'The expiry date must be a real date, for example 31 12 2030.', { monthOnly: type === 'MEDICARE' });
    if (expiry.problem) problems.push({ pointer: '/expiryDate', text: expiry.problem });
    else if (expiry.date) form.append('expiryDate', expiry.date);
    if (!photos.front) problems.push({ pointer: '/front', text: type === 'PASSPORT' ? 'Choose a photo of the passport’s photo page.' : 'Choose a photo of the front of the document.' });
    else form.append('front', photos.front.blob, photos.front.name);
    if (type === 'DRIVER_LICENCE' && photos.back) form.append('back', photos.back.blob, photos.back.name);
    return { form: form, problems: problems };
  }

  // ---- photos ----

  function decode(file) {
    if (window.createImageBitmap) return window.createImageBitmap(file);
    return new Promise(function (resolve, reject) {
      var image = new window.Image();
      var url = URL.createObjectURL(file);
      image.onload = function () {
        URL.revokeObjectURL(url);
        resolve(image);
      };
      image.onerror = function () {
        URL.revokeObjectURL(url);
        reject(new Error('not an image'));
      };
      image.src = url;
    });
  }

  /** Draws a picture at most maxPhotoEdge on its long edge, as a JPEG. */
  function toJpeg(source, width, height) {
    var scale = Math.min(1, maxPhotoEdge / Math.max(width, height));
    var canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    var context = canvas.getContext('2d');
    // A transparent PNG would turn black as a JPEG.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(source, 0, 0, canvas.width, canvas.height);
    return new Promise(function (resolve, reject) {
      canvas.toBlob(
        function (blob) {
          if (blob) resolve(blob);
          else reject(new Error('the photo could not be encoded'));
        },
        'image/jpeg',
        0.85,
      );
    });
  }

  /** A chosen file as it will be sent: as it is when small, a JPEG of at most 2000 px when not. */
  function preparePhoto(file) {
    return decode(file).then(
      function (image) {
        var width = image.width;
        var height = image.height;
        var fits = file.size <= maxPhotoBytes && Math.max(width, height) <= maxPhotoEdge && /^image\/(jpeg|png)$/.test(file.type);
        if (fits) {
          if (image.close) image.close();
          return { blob: file, name: file.name, preview: true, resized: false };
        }
        return toJpeg(image, width, height).then(function (blob) {
          if (image.close) image.close();
          return { blob: blob, name: file.name.replace(/\.[^.]*$/, '') + '.jpg', preview: true, resized: true };
        });
      },
      // Not a picture this browser can read: it goes as it is, and the service says what is wrong with it.
      function () {
        return { blob: file, name: file.name, preview: false, resized: false };
      },
    );
  }

  function showPreview(id, photo) {
    var figure = byId(id + '-preview');
    var image = byId(id + '-preview-img');
    if (image.src) URL.revokeObjectURL(image.src);
    image.removeAttribute('src');
    if (!photo) {
      figure.hidden = true;
      return;
    }
    image.hidden = !photo.preview;
    if (photo.preview) {
      image.src = URL.createObjectURL(photo.blob);
      image.alt = 'Preview: ' + (photo.caption || photo.name);
    }
    byId(id + '-preview-caption').textContent = photo.caption || (photo.resized ? photo.name + ' (made smaller so it uploads faster)' : photo.name);
    figure.hidden = false;
  }

  function watchPhoto(id) {
    on(id, 'change', function () {
      var file = byId(id).files[0];
      if (!file) {
        delete photos[id];
        showPreview(id, null);
        return;
      }
      busy('Preparing your photo…');
      preparing[id] = preparePhoto(file).then(function (photo) {
        photos[id] = photo;
        showPreview(id, photo);
        busy('');
      });
    });
  }

  /** Waits for photos still being prepared, so a form sent at once sends them. */
  function photosReady() {
    var pending = Object.keys(preparing).map(function (id) {
      return preparing[id];
    });
    return Promise.all(pending);
  }

  // ---- the camera ----

  function hasCamera() {
    return Boolean(window.navigator.mediaDevices && window.navigator.mediaDevices.getUserMedia);
  }

  function prepareSelfieStep() {
    var usable = hasCamera() && !state.cameraRefused;
    byId('camera').hidden = !usable;
    byId('selfie-file').labels[0].textContent = usable ? 'Upload a photo instead' : 'Take or upload a photo of your face';
  }

  function stopCamera() {
    if (camera) camera.getTracks().forEach(function (track) {
      track.stop();
    });
    camera = null;
    var video = byId('camera-video');
    video.srcObject = null;
    byId('camera-live').hidden = true;
    byId('camera-start').hidden = false;
  }

  function startCamera() {
    clearErrors();
    window.navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false }).then(
      function (stream) {
        camera = stream;
        var video = byId('camera-video');
        video.srcObject = stream;
        byId('camera-start').hidden = true;
        byId('camera-live').hidden = false;
        byId('busy').textContent = 'Your camera is on. Choose Take photo when you are ready.';
        byId('camera-take').focus();
      },
      function (error) {
        stopCamera();
        state.cameraRefused = true;
        prepareSelfieStep();
        var text =
          error && error.name === 'NotAllowedError'
            ? 'We could not use your camera because permission was not given. Upload a photo of your face instead.'
            : 'We could not start your camera. Upload a photo of your face instead.';
        showProblems([{ pointer: '/image', text: text }]);
      },
    );
  }

  function takePhoto() {
    var video = byId('camera-video');
    if (!video.videoWidth) {
      byId('busy').textContent = 'The camera is still starting. Try again in a moment.';
      return;
    }
    toJpeg(video, video.videoWidth, video.videoHeight).then(function (blob) {
      photos['selfie-file'] = { blob: blob, name: 'selfie.jpg', caption: 'Photo from your camera', preview: true, resized: false };
      delete preparing['selfie-file'];
      byId('selfie-file').value = '';
      showPreview('selfie-file', photos['selfie-file']);
      stopCamera();
      byId('camera-start').textContent = 'Take another photo';
      byId('camera-start').className = 'secondary';
      byId('busy').textContent = 'Photo taken. Check it shows your face clearly, then choose Save and continue.';
      byId('selfie-submit').focus();
    });
  }

  // ---- the document type changes what is asked ----

  function showDocumentType() {
    var type = documentType();
    each(byId('document-form').querySelectorAll('[data-show-for]'), function (container) {
      container.hidden = !type || container.dataset.showFor.split(' ').indexOf(type) < 0;
    });
    if (!type) return;
    each(byId('document-form').querySelectorAll('[data-text-' + type.toLowerCase() + ']'), function (element) {
      element.textContent = element.getAttribute('data-text-' + type.toLowerCase());
    });
  }

  function showStateField() {
    var australian = value('country') === 'AU';
    byId('state').hidden = !australian;
    byId('state-other').hidden = australian;
    var label = byId('state').labels[0] || byId('state-other').labels[0];
    label.htmlFor = australian ? 'state' : 'state-other';
    label.textContent = australian ? 'State or territory' : 'State, province or region';
    byId('postcode').inputMode = australian ? 'numeric' : 'text';
  }

  function showSavedSteps() {
    ['details', 'document', 'selfie'].forEach(function (step) {
      byId('saved-' + step).textContent = saved(step) ? 'Saved' : 'Not done yet';
      byId('saved-' + step).className = saved(step) ? 'check-state' : 'check-state missing';
    });
  }

  // ---- checking ----

  function poll() {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(function () {
      call('GET', sessionUrl).then(
        function (res) {
          if (state.step !== 'checking') return;
          if (res.status === 401) return showEnded();
          if (res.status !== 200) return poll();
          applyView(res.body);
          var next = stepOf(res.body);
          if (next === 'checking') poll();
          else showStep(next);
        },
        function () {
          if (state.step === 'checking') poll();
        },
      );
    }, pollMs);
  }

  function submitForChecks() {
    busy('Sending for checking…');
    call('POST', sessionUrl + '/submit').then(function (res) {
      if (res.status !== 200) return failed(res);
      state.retrying = false;
      state.redone = {};
      showStep('checking');
    }, unreachable);
  }

  // ---- each step's form ----

  function submitted(id, handler) {
    on(id, 'submit', function (event) {
      event.preventDefault();
      handler();
    });
  }

  function afterSave(step) {
    return function (res) {
      if (res.status !== 200) return failed(res);
      state.redone[step] = true;
      applyView(res.body);
      showStep(firstMissing());
    };
  }

  submitted('consent-form', function () {
    if (!byId('consent').checked) return showProblems([{ pointer: '/consent', text: 'Tick the box to agree before you continue.' }]);
    var token = decodeURIComponent(window.location.pathname.split('/v/')[1] || '');
    busy('Starting…');
    call('POST', flow.dataset.openUrl, { token: token }).then(function (res) {
      if (res.status === 201) {
        applyView(res.body);
        return showStep(stepOf(res.body));
      }
      if (res.status === 410 || res.status === 404) return showEnded('This link can no longer be used', res.body.detail ? asSentence(res.body.detail) : undefined);
      failed(res);
    }, unreachable);
  });

  submitted('details-form', function () {
    var read = readDetails();
    if (read.problems.length) return showProblems(read.problems);
    busy('Saving your details…');
    call('PUT', sessionUrl + '/details', read.body).then(afterSave('details'), unreachable);
  });

  submitted('document-form', function () {
    photosReady().then(function () {
      var read = readDocument();
      if (read.problems.length) return showProblems(read.problems);
      busy('Uploading your document…');
      return call('POST', sessionUrl + '/document', read.form).then(afterSave('document'), unreachable);
    });
  });

  submitted('selfie-form', function () {
    photosReady().then(function () {
      var photo = photos['selfie-file'];
      if (!photo) return showProblems([{ pointer: '/image', text: hasCamera() && !state.cameraRefused ? 'Take a photo of your face, or upload one.' : 'Choose a photo of your face.' }]);
      var form = new window.FormData();
      form.append('image', photo.blob, photo.name);
      busy('Uploading your photo…');
      return call('POST', sessionUrl + '/selfie', form).then(afterSave('selfie'), unreachable);
    });
  });

  each(flow.querySelectorAll('input[name="type"]'), function (radio) {
    radio.addEventListener('change', showDocumentType);
  });
  on('country', 'change', showStateField);
  ['front', 'back', 'selfie-file'].forEach(watchPhoto);
  on('camera-start', 'click', startCamera);
  on('camera-take', 'click', takePhoto);
  on('submit-checks', 'click', submitForChecks);
  on('unavailable-retry', 'click', submitForChecks);
  on('retry-start', 'click', function () {
    state.retrying = true;
    state.redone = {};
    ['front', 'back', 'selfie-file'].forEach(function (id) {
      delete photos[id];
      delete preparing[id];
      byId(id).value = '';
      showPreview(id, null);
    });
    showStep('document');
  });
  each(flow.querySelectorAll('[data-goto]'), function (button) {
    button.addEventListener('click', function () {
      showStep(button.dataset.goto);
    });
  });
  window.addEventListener('pagehide', stopCamera);

  showDocumentType();
  showStateField();
  showStep(state.step, { initial: true });
})();
