;;; theme-cycle.el --- Cycle through favourite themes  -*- lexical-binding: t; -*-

;; Author: Dev <dev@example.org>
;; Version: 0.1.3
;; Package-Requires: ((emacs "28.1"))

;;; Commentary:

;; M-x theme-cycle-next loads the next theme in `theme-cycle-themes'.

;;; Code:

(defcustom theme-cycle-themes '(modus-operandi modus-vivendi)
  "Themes to cycle through."
  :type '(repeat symbol)
  :group 'faces)

(defvar theme-cycle--index 0)

;;;###autoload
(defun theme-cycle-next ()
  "Disable current themes and load the next one in `theme-cycle-themes'."
  (interactive)
  (mapc #'disable-theme custom-enabled-themes)
  (setq theme-cycle--index (mod (1+ theme-cycle--index) (length theme-cycle-themes)))
  (load-theme (nth theme-cycle--index theme-cycle-themes) t))

(provide 'theme-cycle)
;;; theme-cycle.el ends here
