import './cart';
import './shipping-estimator';
import './quick-add';
